package dev.mcptasks.adapters.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps idle, half-sent and surplus connections from holding the gateway's file descriptors. A connection must send
 * its next request whole (headers and body) within the request timeout, counted from its opening or from the end of
 * its last answer: a keep-alive connection left idle and a slowloris that trickles its headers are closed alike.
 * While a request is being answered (a held call, an SSE stream) no timer runs. At the connection cap a new
 * connection takes the place of the oldest one that has never carried an authenticated request and is not being
 * answered (an idle or slowloris socket of someone without a token), so sockets held open by an attacker cannot keep
 * an authorized client out; only when every connection is proven or busy is the new one closed at once. Shared by
 * every channel of one gateway; per-channel state lives in attributes.
 */
@ChannelHandler.Sharable
final class ConnectionLimits extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimits.class);
    private static final AttributeKey<ScheduledFuture<?>> DEADLINE = AttributeKey.valueOf("mcp-tasks.request-deadline");
    /** Requests read whole and not yet answered (more than one when a client pipelines); event loop only. */
    private static final AttributeKey<Integer> ANSWERING = AttributeKey.valueOf("mcp-tasks.answering");

    private final Duration requestTimeout;
    private final int maxConnections;
    private final AtomicInteger open = new AtomicInteger();
    /** Open connections that never carried an authenticated request, oldest first. */
    private final Deque<Channel> unproven = new ConcurrentLinkedDeque<>();

    ConnectionLimits(GatewaySettings.Connections settings) {
        this.requestTimeout = settings.requestTimeout();
        this.maxConnections = settings.maxConnections();
    }

    /** Connections open now (tests, metrics). */
    int open() {
        return open.get();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (open.incrementAndGet() > maxConnections && !evictUnproven()) {
            LOG.warn("gateway: {} connections are open, the most allowed; closing a new one from {}", maxConnections,
                    ctx.channel().remoteAddress());
            ctx.close();
            return;
        }
        unproven.add(ctx.channel());
        awaitRequest(ctx);
        super.channelActive(ctx);
    }

    /** Closes the oldest unproven connection not being answered; false when there is none. */
    private boolean evictUnproven() {
        for (Channel channel : unproven) {
            Integer answering = channel.attr(ANSWERING).get();
            if ((answering == null || answering == 0) && unproven.remove(channel)) {
                LOG.debug("gateway: at the connection cap; closing the oldest connection without an authenticated"
                        + " request, from {}", channel.remoteAddress());
                channel.close();
                return true;
            }
        }
        return false;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        unproven.remove(ctx.channel());
        open.decrementAndGet();
        cancelDeadline(ctx);
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) throws Exception {
        if (message instanceof LastHttpContent) {
            // the request is whole: answering it has no bound here
            cancelDeadline(ctx);
            ctx.channel().attr(ANSWERING).set(answering(ctx) + 1);
        }
        boolean whole = message instanceof LastHttpContent;
        super.channelRead(ctx, message);
        // the gate after this handler has named the request's principal if its token was good: the connection has
        // proven itself and is never evicted for a newcomer
        if (whole && ctx.channel().attr(RequestGate.PRINCIPAL).get() != null) {
            unproven.remove(ctx.channel());
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
        if (message instanceof LastHttpContent) {
            // the answer is complete: the next request must come whole within the bound
            promise.addListener(written -> {
                int left = Math.max(0, answering(ctx) - 1);
                ctx.channel().attr(ANSWERING).set(left);
                if (left == 0 && ctx.channel().isActive()) {
                    awaitRequest(ctx);
                }
            });
        }
        super.write(ctx, message, promise);
    }

    private void awaitRequest(ChannelHandlerContext ctx) {
        ScheduledFuture<?> deadline = ctx.executor().schedule(() -> {
            LOG.debug("gateway: closing a connection from {} that sent no whole request within {}",
                    ctx.channel().remoteAddress(), requestTimeout);
            ctx.close();
        }, requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        ScheduledFuture<?> previous = ctx.channel().attr(DEADLINE).getAndSet(deadline);
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private static int answering(ChannelHandlerContext ctx) {
        Integer answering = ctx.channel().attr(ANSWERING).get();
        return answering == null ? 0 : answering;
    }

    private static void cancelDeadline(ChannelHandlerContext ctx) {
        ScheduledFuture<?> deadline = ctx.channel().attr(DEADLINE).getAndSet(null);
        if (deadline != null) {
            deadline.cancel(false);
        }
    }
}
