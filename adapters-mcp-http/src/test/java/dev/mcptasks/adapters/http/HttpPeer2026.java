package dev.mcptasks.adapters.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A minimal HTTP peer for the 2026-07-28 framing: records every request (headers and body) and answers each with
 * what the test's function returns (status and JSON body), always on a JSON response.
 */
final class HttpPeer2026 implements AutoCloseable {
    record Seen(String method, HttpHeaders headers, String body) {}

    record Reply(int status, String body) {}

    final List<Seen> requests = new CopyOnWriteArrayList<>();
    volatile Function<String, Reply> answers = body -> new Reply(200, "{}");
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;

    HttpPeer2026() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
                                        String body = request.content().toString(StandardCharsets.UTF_8);
                                        requests.add(new Seen(request.method().name(), request.headers().copy(),
                                                body));
                                        Reply reply = answers.apply(body);
                                        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.valueOf(reply.status()),
                                                Unpooled.copiedBuffer(reply.body(), StandardCharsets.UTF_8));
                                        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
                                        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH,
                                                response.content().readableBytes());
                                        ctx.writeAndFlush(response);
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", 0).sync().channel();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + "/mcp");
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
