package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.NettyConnections;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Sets up every new pooled connection: TLS when the endpoint is https, the HTTP/1.1 client codec, and a tail that
 * drops stray input on an idle pooled connection (a response handler sits in front of it while an exchange runs).
 */
final class PooledChannelInitializer extends AbstractChannelPoolHandler {
    static final String IDLE_TAIL = "idle-tail";

    private final NettyConnections connections;

    PooledChannelInitializer(NettyConnections connections) {
        this.connections = connections;
    }

    @Override
    public void channelCreated(Channel channel) {
        connections.initialize(channel);
        channel.pipeline().addLast(IDLE_TAIL, new IdleTail());
    }

    /** Input or errors with no exchange running: the connection is of no further use. */
    private static final class IdleTail extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            ctx.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
