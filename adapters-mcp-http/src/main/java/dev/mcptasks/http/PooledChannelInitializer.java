package dev.mcptasks.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;

/**
 * Sets up every new pooled connection: TLS when the endpoint is https, the HTTP/1.1 client codec, and a tail that
 * drops stray input on an idle pooled connection (a response handler sits in front of it while an exchange runs).
 */
final class PooledChannelInitializer extends AbstractChannelPoolHandler {
    static final String CODEC = "http";
    static final String IDLE_TAIL = "idle-tail";

    private final HttpEndpoint endpoint;
    private final SslContext ssl;

    PooledChannelInitializer(HttpEndpoint endpoint, SslContext ssl) {
        this.endpoint = endpoint;
        this.ssl = ssl;
    }

    @Override
    public void channelCreated(Channel channel) {
        if (ssl != null) {
            channel.pipeline().addLast("tls", ssl.newHandler(channel.alloc(), endpoint.host(), endpoint.port()));
        }
        channel.pipeline().addLast(CODEC, new HttpClientCodec());
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
