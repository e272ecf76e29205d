package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Failure mapping: what is a connect failure, a lost session, a broken stream. */
class HttpFailuresTest {
    @Test
    void tlsFailuresAreConnectFailuresAndResetsAreBrokenStreams() {
        assertThat(HttpFailures.onChannel("s", new DecoderException(new SSLHandshakeException("bad cert"))))
                .isInstanceOfSatisfying(ExchangeOutcome.Failed.class,
                        f -> assertThat(f.cause().kind()).isEqualTo(Kind.CONNECT_FAILED));
        assertThat(HttpFailures.onChannel("s", new DecoderException("bad chunk")))
                .isInstanceOfSatisfying(ExchangeOutcome.Failed.class,
                        f -> assertThat(f.cause().kind()).isEqualTo(Kind.MALFORMED));
        assertThat(HttpFailures.onChannel("s", new IOException("Connection reset by peer")))
                .isInstanceOf(ExchangeOutcome.Broken.class);
    }

    @Test
    void sessionLossNeedsASessionFor404ButNotForTheEverythingQuirk() {
        assertThat(HttpFailures.status("s", 404, "", true).kind()).isEqualTo(Kind.SESSION_LOST);
        assertThat(HttpFailures.status("s", 404, "", false).kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(HttpFailures.status("s", 400, "Bad Request: No valid session ID provided", false).kind())
                .isEqualTo(Kind.SESSION_LOST);
        assertThat(HttpFailures.status("s", 400, "Unsupported protocol version", true).httpStatus()).isEqualTo(400);
    }
}
