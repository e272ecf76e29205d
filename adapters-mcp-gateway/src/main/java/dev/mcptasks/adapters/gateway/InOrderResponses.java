package dev.mcptasks.adapters.gateway;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * HTTP/1.1 answers pipelined requests in the order they came: a client may send its next request before the first is
 * answered, and it pairs responses with requests by order alone. The gateway answers requests asynchronously (a
 * {@code ping} is done long before a {@code tools/call}), so this handler, right after the codec, passes the next
 * request on only once every request before it has its complete response written; meanwhile the connection stops
 * reading, so a client cannot queue unbounded work here.
 *
 * <p>A response written before its request ended (an early rejection) counts for that request: the counts, not
 * their order of arrival, decide whether a request is still waiting for its answer.
 */
final class InOrderResponses extends ChannelDuplexHandler {
    /** Messages of requests received while an earlier one is unanswered, in order. */
    private final Queue<Object> held = new ArrayDeque<>();
    private long requestsEnded;
    private long responsesEnded;
    private boolean draining;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        if (awaitingAnswer() || !held.isEmpty()) {
            held.add(message);
            ctx.channel().config().setAutoRead(false);
            return;
        }
        pass(ctx, message);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) {
        boolean ends = message instanceof LastHttpContent;
        ctx.write(message, promise);
        if (ends) {
            responsesEnded++;
            if (!held.isEmpty() && !draining) {
                draining = true;
                // never from inside a write: the next request's handler may answer at once, writing again
                ctx.executor().execute(() -> drain(ctx));
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseHeld();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    private boolean awaitingAnswer() {
        return requestsEnded > responsesEnded;
    }

    private void pass(ChannelHandlerContext ctx, Object message) {
        if (message instanceof LastHttpContent) {
            requestsEnded++;
        }
        ctx.fireChannelRead(message);
    }

    /** Passes held messages on until one more request ended unanswered; reads again once nothing is held. */
    private void drain(ChannelHandlerContext ctx) {
        draining = false;
        while (!held.isEmpty() && !awaitingAnswer() && ctx.channel().isActive()) {
            pass(ctx, held.poll());
        }
        if (held.isEmpty() && ctx.channel().isActive()) {
            ctx.channel().config().setAutoRead(true);
            ctx.read();
        }
    }

    private void releaseHeld() {
        Object message;
        while ((message = held.poll()) != null) {
            ReferenceCountUtil.release(message);
        }
    }
}
