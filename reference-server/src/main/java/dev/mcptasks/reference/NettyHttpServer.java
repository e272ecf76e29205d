package dev.mcptasks.reference;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The Netty server socket on 127.0.0.1 that feeds HTTP requests to the shared {@link McpHttpHandler}. */
final class NettyHttpServer implements AutoCloseable {
  /** Largest accepted POST body. */
  static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel serverChannel;

  private NettyHttpServer(EventLoopGroup boss, EventLoopGroup workers, Channel serverChannel) {
    this.boss = boss;
    this.workers = workers;
    this.serverChannel = serverChannel;
  }

  /** Binds loopback only: the reference server is for local tests and demos, never a network service. */
  static NettyHttpServer bind(int port, McpHttpHandler handler) throws InterruptedException {
    EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    try {
      Channel channel = new ServerBootstrap()
          .group(boss, workers)
          .channel(NioServerSocketChannel.class)
          .childHandler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline()
                  .addLast(new HttpServerCodec())
                  .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
                  .addLast(handler);
            }
          })
          .bind(new InetSocketAddress("127.0.0.1", port))
          .sync()
          .channel();
      return new NettyHttpServer(boss, workers, channel);
    } catch (InterruptedException | RuntimeException e) {
      boss.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      workers.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
      throw e;
    }
  }

  int port() {
    return ((InetSocketAddress) serverChannel.localAddress()).getPort();
  }

  @Override
  public void close() {
    serverChannel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
