package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLException;

/**
 * One POST of a message, from waiting for a pooled connection to the server's answer: a 2xx (202 Accepted)
 * completes {@link #done()} with {@link Outcome.Accepted}, a challenge (401, 403 {@code insufficient_scope}) with
 * {@link Outcome.Challenged}; anything else fails it with a typed cause. The message's answer, if any, travels on the
 * SSE stream, not here. {@code done} completes exactly once, after the connection was handed back.
 */
final class PostExchange extends SimpleChannelInboundHandler<HttpObject> {
    private static final int MAX_ERROR_BODY = 4096;

    /** How a finished connection goes back to the pool. */
    interface ChannelReturn {
        void giveBack(Channel channel, boolean reusable);
    }

    /** How the server took the POST. */
    sealed interface Outcome {
        /** 2xx: the message is the server's. */
        record Accepted() implements Outcome {}

        /** Refused for want of authorization, before the server acted on it. */
        record Challenged(int status, String wwwAuthenticate) implements Outcome {}
    }

    private static final Outcome ACCEPTED = new Outcome.Accepted();

    private final String server;
    private final CompletableFuture<Outcome> done = new CompletableFuture<>();
    /** Guarded by this: the connection and how to return it, set once acquired; {@code finished} once ended. */
    private Channel channel;
    private ChannelReturn channelReturn;
    private boolean finished;
    private int status;
    private String wwwAuthenticate;
    private boolean keepAlive;
    /** The body of a non-2xx answer, bounded; event loop only. */
    private ByteArrayOutputStream errorBody;

    PostExchange(String server) {
        super(true);
        this.server = server;
    }

    CompletableFuture<Outcome> done() {
        return done;
    }

    /** Binds the exchange to its connection; false when it already ended (abandoned while waiting). */
    synchronized boolean attach(Channel channel, ChannelReturn channelReturn) {
        if (finished) {
            return false;
        }
        this.channel = channel;
        this.channelReturn = channelReturn;
        return true;
    }

    /** The POST could not be sent or its connection failed before an answer. */
    void failed(McpTransportException cause) {
        finish(cause, null, false);
    }

    /**
     * Ends the exchange from outside (local close, lost stream, the caller gave up): a POST not yet answered has its
     * connection closed and fails with {@code cause}, as possibly sent once it had a connection.
     */
    void abort(McpTransportException cause) {
        Channel attachedTo;
        synchronized (this) {
            attachedTo = channel;
        }
        if (attachedTo == null) {
            finish(cause, null, false);
            return;
        }
        try {
            attachedTo.eventLoop().execute(() -> finish(cause.afterWriting(), null, false));
        } catch (RejectedExecutionException e) {
            // the event loop is gone (client closed), and with it the connection
            finish(cause.afterWriting(), null, false);
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (msg instanceof HttpResponse response) {
            status = response.status().code();
            keepAlive = HttpUtil.isKeepAlive(response);
            if (status < 200 || status >= 300) {
                wwwAuthenticate = HttpAuth.wwwAuthenticate(response.headers());
                errorBody = new ByteArrayOutputStream();
            }
        }
        if (msg instanceof HttpContent content && errorBody != null) {
            ByteBuf bytes = content.content();
            byte[] kept = new byte[Math.min(bytes.readableBytes(), Math.max(0, MAX_ERROR_BODY - errorBody.size()))];
            bytes.readBytes(kept);
            errorBody.writeBytes(kept);
        }
        if (msg instanceof LastHttpContent) {
            if (errorBody == null) {
                finish(null, ACCEPTED, keepAlive);
            } else if (HttpAuth.isChallenge(status, wwwAuthenticate)) {
                finish(null, new Outcome.Challenged(status, wwwAuthenticate), keepAlive);
            } else {
                finish(statusFailure(), null, keepAlive);
            }
        }
    }

    private McpTransportException statusFailure() {
        String body = errorBody.toString(StandardCharsets.UTF_8).strip();
        String detail = body.isEmpty() ? "" : ": " + (body.length() <= 300 ? body : body.substring(0, 300) + "...");
        if (status == 404) {
            // the POST endpoint carries the session: a 404 there means the server no longer knows it
            return new McpTransportException(Kind.SESSION_LOST, "server '" + server + "' no longer knows the legacy"
                    + " session (HTTP 404 on its POST endpoint)" + detail);
        }
        return McpTransportException.httpStatus(status, "server '" + server + "' answered a POST with HTTP " + status
                + detail);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            finish(new McpTransportException(Kind.TIMEOUT, "server '" + server
                    + "' did not answer a POST within the read timeout"), null, false);
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        finish(new McpTransportException(Kind.STREAM_BROKEN, "the connection to server '" + server
                + "' closed before its POST was answered"), null, false);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
            finish(new McpTransportException(Kind.CONNECT_FAILED, "cannot connect to server '" + server + "': "
                    + cause, cause), null, false);
        } else if (cause instanceof DecoderException) {
            finish(new McpTransportException(Kind.MALFORMED, "server '" + server + "' sent a malformed HTTP response"
                    + " to a POST: " + cause.getMessage(), cause), null, false);
        } else {
            finish(new McpTransportException(Kind.STREAM_BROKEN, "the connection to server '" + server
                    + "' broke before its POST was answered: " + cause, cause), null, false);
        }
    }

    /**
     * Ends the exchange once: hands the connection back (closed unless reusable), then completes {@code done} with
     * {@code outcome}, or fails it with {@code failure} when that is not null.
     */
    private void finish(McpTransportException failure, Outcome outcome, boolean reusable) {
        Channel attachedTo;
        ChannelReturn giveBack;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            attachedTo = channel;
            giveBack = channelReturn;
        }
        if (attachedTo != null) {
            giveBack.giveBack(attachedTo, reusable && attachedTo.isActive());
        }
        if (failure == null) {
            done.complete(outcome);
        } else {
            done.completeExceptionally(failure);
        }
    }
}
