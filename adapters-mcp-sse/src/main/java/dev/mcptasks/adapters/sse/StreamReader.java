package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.adapters.httpsupport.SseParser;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;

/**
 * Reads the one SSE stream of a legacy session on its own connection: a 2xx {@code text/event-stream} answer, then
 * events until the server ends the stream, the connection breaks, or it stays silent beyond the read timeout. Tells
 * its {@link Events} about each event and, exactly once, how the stream ended: a challenge (401, 403
 * {@code insufficient_scope}) to its GET, or any other end.
 */
final class StreamReader extends SimpleChannelInboundHandler<HttpObject> {
    private static final int MAX_ERROR_BODY = 4096;

    /** What the transport hears from the stream; called on the event loop. */
    interface Events {
        void onEvent(SseEvent event);

        /** An event over the bound was discarded. */
        void onOversized(long bytes);

        /** The stream ended or could not be opened; called once, unless {@link #onChallenged} was. */
        void onEnded(McpTransportException cause);

        /** The GET was refused for want of authorization; called once, instead of {@link #onEnded}. */
        void onChallenged(int status, String wwwAuthenticate);
    }

    private final String server;
    private final Events events;
    private final SseParser parser;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Channel channel;
    private int status;
    private String wwwAuthenticate;
    /** The body of a non-2xx answer, up to {@link #MAX_ERROR_BODY} bytes; event loop only. */
    private ByteArrayOutputStream errorBody;

    StreamReader(String server, int maxMessageBytes, Events events) {
        super(true);
        this.server = server;
        this.events = events;
        this.parser = new SseParser(maxMessageBytes, new SseParser.Sink() {
            @Override
            public void onEvent(SseEvent event) {
                events.onEvent(event);
            }

            @Override
            public void onOversized(long bytes) {
                events.onOversized(bytes);
            }
        });
    }

    void attached(Channel channel) {
        this.channel = channel;
        if (ended.get()) {
            channel.close();
        }
    }

    /** Ends the stream from outside (local close); its connection is closed. */
    void stop(McpTransportException cause) {
        end(cause);
    }

    /** The stream could not be opened (connect, TLS, write). */
    void failed(McpTransportException cause) {
        end(cause);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (ended.get()) {
            return;
        }
        if (msg instanceof HttpResponse response) {
            status = response.status().code();
            String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "").toLowerCase(Locale.ROOT);
            if (status < 200 || status >= 300) {
                wwwAuthenticate = HttpAuth.wwwAuthenticate(response.headers());
                errorBody = new ByteArrayOutputStream();
            } else if (!type.startsWith("text/event-stream")) {
                end(new McpTransportException(Kind.MALFORMED, "server '" + server + "' answered the GET of its SSE"
                        + " url with " + (type.isEmpty() ? "no content type" : "content type " + type)
                        + ", not text/event-stream: not the legacy HTTP+SSE transport"));
                return;
            }
        }
        if (msg instanceof HttpContent content) {
            if (errorBody != null) {
                ByteBuf bytes = content.content();
                int take = Math.min(bytes.readableBytes(), Math.max(0, MAX_ERROR_BODY - errorBody.size()));
                byte[] kept = new byte[take];
                bytes.readBytes(kept);
                errorBody.writeBytes(kept);
            } else {
                parser.feed(content.content());
            }
            if (msg instanceof LastHttpContent) {
                if (errorBody != null && HttpAuth.isChallenge(status, wwwAuthenticate)) {
                    if (markEnded()) {
                        events.onChallenged(status, wwwAuthenticate);
                    }
                } else if (errorBody != null) {
                    String body = errorBody.toString(StandardCharsets.UTF_8).strip();
                    end(McpTransportException.httpStatus(status, "server '" + server + "' answered the GET of its"
                            + " SSE url with HTTP " + status + (body.isEmpty() ? "" : ": " + abbreviate(body))));
                } else {
                    end(new McpTransportException(Kind.SESSION_LOST, "server '" + server
                            + "' ended its SSE stream: the legacy session is gone"));
                }
            }
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            end(new McpTransportException(Kind.TIMEOUT, "the SSE stream of server '" + server
                    + "' was silent beyond the read timeout"));
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        end(new McpTransportException(Kind.SESSION_LOST, "the SSE stream of server '" + server
                + "' broke: its connection closed"));
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
            end(new McpTransportException(Kind.CONNECT_FAILED, "cannot connect to server '" + server + "': " + cause,
                    cause));
        } else if (cause instanceof DecoderException) {
            end(new McpTransportException(Kind.MALFORMED, "server '" + server + "' sent a malformed HTTP response on"
                    + " its SSE stream: " + cause.getMessage(), cause));
        } else {
            end(new McpTransportException(Kind.SESSION_LOST, "the SSE stream of server '" + server + "' broke: "
                    + cause, cause));
        }
    }

    private void end(McpTransportException cause) {
        if (markEnded()) {
            events.onEnded(cause);
        }
    }

    /** Marks the stream ended and closes its connection; false when it had ended before. */
    private boolean markEnded() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        Channel attachedTo = channel;
        if (attachedTo != null) {
            attachedTo.close();
        }
        return true;
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
