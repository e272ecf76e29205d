package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.NettyConnections;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.DecoderException;
import java.net.ConnectException;
import javax.net.ssl.SSLException;

/** Maps HTTP statuses and Netty failures to typed transport failures. */
final class HttpFailures {
    private HttpFailures() {}

    /**
     * A non-2xx answer. 404 with a session id, and server-everything's 400 "No valid session", mean the session is
     * gone.
     */
    static McpTransportException status(String server, int status, String body, boolean hadSession) {
        String detail = body.isBlank() ? "" : ": " + abbreviate(body.strip());
        if ((status == 404 && hadSession) || (status == 400 && body.contains("No valid session"))) {
            return new McpTransportException(Kind.SESSION_LOST,
                    "server '" + server + "' no longer knows the session (HTTP " + status + ")" + detail);
        }
        return new McpTransportException(Kind.HTTP_STATUS, "server '" + server + "' answered HTTP " + status + detail,
                status, null);
    }

    /** A failure on an open connection. */
    static ExchangeOutcome onChannel(String server, Throwable cause) {
        // SslHandler wraps handshake and record failures in a DecoderException
        if (cause instanceof SSLException || cause.getCause() instanceof SSLException
                || cause instanceof ConnectException) {
            return new ExchangeOutcome.Failed(NettyConnections.connectFailure(server, cause));
        }
        if (cause instanceof DecoderException) {
            return new ExchangeOutcome.Failed(new McpTransportException(Kind.MALFORMED,
                    "server '" + server + "' sent a malformed HTTP response: " + cause.getMessage(), cause));
        }
        return new ExchangeOutcome.Broken(cause.toString());
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
