package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.adapters.httpsupport.SseParser;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one HTTP response on a pooled channel: an SSE stream through {@link SseParser}, a JSON body under a size
 * bound, or an error body for the message. It completes {@link #outcome()} exactly once and then hands the channel
 * back (reusable only after a complete keep-alive response).
 */
final class ResponseHandler extends SimpleChannelInboundHandler<HttpObject> {
    private static final int MAX_ERROR_BODY = 4096;

    /** How a finished channel goes back to the pool. */
    interface ChannelReturn {
        void giveBack(Channel channel, boolean reusable);
    }

    private enum Mode { SSE, BODY, ERROR }

    private final String server;
    private final int maxMessageBytes;
    private final SessionHeaders sessions;
    private final boolean hadSession;
    private final ResponseSink sink;
    private final StreamState stream;
    /** The 2026-07-28 request this answers, or null (2025-11-25 requests, GET streams, DELETE). */
    private final Frame2026 frame;
    private final CompletableFuture<ExchangeOutcome> outcome = new CompletableFuture<>();
    /** {@link #NOT_WRITTEN}, then either {@link #WRITING} (the client) or {@link #STOPPED} (an abort): one wins. */
    private final AtomicInteger writeState = new AtomicInteger(NOT_WRITTEN);
    private static final int NOT_WRITTEN = 0;
    private static final int WRITING = 1;
    private static final int STOPPED = 2;
    private ChannelReturn channelReturn;
    private volatile Channel channel;
    private boolean ended;
    private Mode mode;
    private int status;
    private String wwwAuthenticate;
    private boolean keepAlive;
    private long contentLength;
    private SseParser parser;
    private ByteBuf body;

    ResponseHandler(String server, int maxMessageBytes, SessionHeaders sessions, ResponseSink sink,
            StreamState stream) {
        this(server, maxMessageBytes, sessions, sink, stream, null);
    }

    ResponseHandler(String server, int maxMessageBytes, SessionHeaders sessions, ResponseSink sink,
            StreamState stream, Frame2026 frame) {
        super(true);
        this.frame = frame;
        this.server = server;
        this.maxMessageBytes = maxMessageBytes;
        this.sessions = sessions;
        this.hadSession = sessions.sessionId() != null;
        this.sink = sink;
        this.stream = stream;
    }

    CompletableFuture<ExchangeOutcome> outcome() {
        return outcome;
    }

    void channelReturn(ChannelReturn channelReturn) {
        this.channelReturn = channelReturn;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
        if (ended || outcome.isDone()) {
            return;
        }
        if (msg instanceof HttpResponse response) {
            start(response);
        }
        if (msg instanceof HttpContent content) {
            read(ctx, content.content());
            if (msg instanceof LastHttpContent && !ended) {
                finish(ctx);
            }
        }
    }

    private void start(HttpResponse response) {
        status = response.status().code();
        keepAlive = HttpUtil.isKeepAlive(response);
        contentLength = HttpUtil.getContentLength(response, -1L);
        if (frame == null) {
            sessions.capture(response.headers());
        }
        String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "").toLowerCase(Locale.ROOT);
        if (status < 200 || status >= 300) {
            wwwAuthenticate = HttpAuth.wwwAuthenticate(response.headers());
            mode = Mode.ERROR;
            body = Unpooled.buffer();
        } else if (type.startsWith("text/event-stream")) {
            mode = Mode.SSE;
            stream.markEventStream();
            parser = new SseParser(maxMessageBytes, new ParserSink());
        } else {
            mode = Mode.BODY;
            body = Unpooled.buffer();
        }
    }

    private void read(ChannelHandlerContext ctx, ByteBuf content) {
        if (content.isReadable()) {
            stream.heard();
        }
        switch (mode) {
            case SSE -> {
                parser.feed(content);
                stream.update(parser);
            }
            case ERROR -> body.writeBytes(content, Math.min(content.readableBytes(),
                    Math.max(0, errorBodyCap() - body.readableBytes())));
            case BODY -> {
                if (body.readableBytes() + content.readableBytes() > maxMessageBytes) {
                    long declared = contentLength;
                    McpTransportException tooLarge = new McpMessageTooLargeException("server '" + server
                            + "' sent a JSON body", declared > 0 ? declared
                                    : body.readableBytes() + content.readableBytes(), declared <= 0,
                            maxMessageBytes, "", "");
                    stream.markOversized(tooLarge);
                    sink.onError(tooLarge);
                    end(ctx, new ExchangeOutcome.Failed(tooLarge), false);
                } else {
                    body.writeBytes(content);
                }
            }
            default -> throw new IllegalStateException("content before the response head from server " + server);
        }
    }

    private void finish(ChannelHandlerContext ctx) {
        if (mode == Mode.ERROR) {
            if (HttpAuth.isChallenge(status, wwwAuthenticate)) {
                // before the 2026-07-28 error bodies: an auth layer's refusal is the transport's to answer
                end(ctx, new ExchangeOutcome.Challenged(status, wwwAuthenticate), keepAlive);
                return;
            }
            String text = body.toString(StandardCharsets.UTF_8);
            String answer = frame != null && status >= 400 && status < 500 ? frame.errorAnswer(text) : null;
            if (answer != null) {
                // 2026-07-28 answers refusals (-32020/-32021/-32022, a missing envelope) with 4xx and a JSON-RPC
                // error: that error is the request's answer, not a transport failure
                sink.onBody(answer);
                end(ctx, new ExchangeOutcome.Completed(status), keepAlive);
                return;
            }
            end(ctx, new ExchangeOutcome.Failed(HttpFailures.status(server, status, text, hadSession)), keepAlive);
            return;
        }
        if (mode == Mode.BODY && body.isReadable()) {
            sink.onBody(body.toString(StandardCharsets.UTF_8));
        }
        end(ctx, new ExchangeOutcome.Completed(status), keepAlive);
    }

    /** A 2026-07-28 error body is read whole (up to the message cap): its data names what was refused. */
    private int errorBodyCap() {
        return frame == null ? MAX_ERROR_BODY : maxMessageBytes;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent) {
            end(ctx, new ExchangeOutcome.Failed(new McpTransportException(Kind.TIMEOUT,
                    "server '" + server + "' sent nothing within the read timeout")), false);
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        end(ctx, new ExchangeOutcome.Broken("the connection closed before the response ended"), false);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        end(ctx, HttpFailures.onChannel(server, cause), false);
    }

    /** Claims the right to write the request; false once {@link #stopBeforeWrite()} won. */
    boolean startWriting() {
        return writeState.compareAndSet(NOT_WRITTEN, WRITING);
    }

    /** Prevents the request from ever being written; false when it is (or may be) written already. */
    boolean stopBeforeWrite() {
        return writeState.compareAndSet(NOT_WRITTEN, STOPPED) || writeState.get() == STOPPED;
    }

    /** Records the connection this exchange runs on (before the request is written). */
    void attached(Channel channel) {
        this.channel = channel;
    }

    /** Ends the exchange from outside (local close); closes its connection if it has one. */
    void abort(ExchangeOutcome why) {
        Channel attachedTo = channel;
        if (attachedTo == null) {
            outcome.complete(why);
            // the client checks the outcome after attaching: one of us sees the other
            attachedTo = channel;
            if (attachedTo == null) {
                return;
            }
        }
        abort(attachedTo, why);
    }

    /** Ends the exchange on {@code channel} from outside (a write failure, a local close); closes the channel. */
    void abort(Channel channel, ExchangeOutcome why) {
        try {
            channel.eventLoop().execute(() -> endFromOutside(channel, why));
        } catch (RejectedExecutionException e) {
            // the event loop is gone (client closed): so are its connections
            channel.close();
            outcome.complete(why);
        }
    }

    private void endFromOutside(Channel channel, ExchangeOutcome why) {
        ChannelHandlerContext ctx = channel.pipeline().context(this);
        if (ctx != null) {
            end(ctx, why, false);
        } else if (!ended) {
            // attached but never added to the pipeline: the channel still has to go back, closed
            ended = true;
            if (channelReturn != null) {
                channelReturn.giveBack(channel, false);
            } else {
                channel.close();
            }
            outcome.complete(why);
        }
    }

    private void end(ChannelHandlerContext ctx, ExchangeOutcome result, boolean reusable) {
        // closing the channel below re-enters through channelInactive: the first ending wins
        if (ended) {
            return;
        }
        ended = true;
        if (body != null) {
            body.release();
            body = null;
        }
        Channel channel = ctx.channel();
        // detach before completing, so whatever the outcome triggers never sees this handler on a pooled channel
        if (channelReturn != null) {
            channelReturn.giveBack(channel, reusable && channel.isActive());
        } else {
            channel.close();
        }
        outcome.complete(result);
    }

    /** Forwards parsed events, counting new messages and recording discarded ones. */
    private final class ParserSink implements SseParser.Sink {
        @Override
        public void onEvent(SseEvent event) {
            if (sink.onEvent(event)) {
                stream.delivered();
            }
        }

        @Override
        public void onOversized(long bytes) {
            McpMessageTooLargeException tooLarge = new McpMessageTooLargeException("server '" + server
                    + "' sent an SSE event", bytes, false, maxMessageBytes, "", "");
            stream.markOversized(tooLarge);
            sink.onError(tooLarge);
        }
    }
}
