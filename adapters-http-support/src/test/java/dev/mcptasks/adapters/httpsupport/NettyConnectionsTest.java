package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The shared Netty plumbing: what a connect failure is, how a connection starts, how an exchange lets go of it. */
class NettyConnectionsTest {
    @Test
    void connectTimeoutsAndRefusalsAreConnectFailuresThatSentNothing() {
        assertThat(NettyConnections.connectFailure("s", new ConnectTimeoutException("slow")).sent()).isFalse();
        assertThat(NettyConnections.connectFailure("s", new ConnectTimeoutException("slow")).getMessage())
                .contains("timed out");
        assertThat(NettyConnections.connectFailure("s", new ConnectException("refused")).kind())
                .isEqualTo(Kind.CONNECT_FAILED);
        assertThat(NettyConnections.connectFailure("s", new ConnectException("refused")).sent()).isFalse();
    }

    @Test
    void aConnectionStartsWithTlsForHttpsAndTheCodec() {
        try (NettyConnections plain = new NettyConnections("s", HttpTarget.of("s", URI.create("http://h/mcp")),
                Duration.ofSeconds(1));
                NettyConnections tls = new NettyConnections("s", HttpTarget.of("s", URI.create("https://h/mcp")),
                        Duration.ofSeconds(1))) {
            EmbeddedChannel overPlain = new EmbeddedChannel();
            plain.initialize(overPlain);
            assertThat(overPlain.pipeline().names()).contains(NettyConnections.CODEC)
                    .doesNotContain(NettyConnections.TLS);
            EmbeddedChannel overTls = new EmbeddedChannel();
            tls.initialize(overTls);
            assertThat(overTls.pipeline().names()).containsSubsequence(NettyConnections.TLS, NettyConnections.CODEC);
            overPlain.finishAndReleaseAll();
            overTls.finishAndReleaseAll();
        }
    }

    @Test
    void detachTakesOffTheNamedHandlersAndClosesOnlyWhatCannotBeReused() {
        EmbeddedChannel reused = new EmbeddedChannel();
        reused.pipeline().addLast("idle", new ChannelInboundHandlerAdapter());
        reused.pipeline().addLast("keep", new ChannelInboundHandlerAdapter());
        NettyConnections.detach(reused, true, "idle", "response");
        assertThat(reused.pipeline().names()).contains("keep").doesNotContain("idle");
        assertThat(reused.isOpen()).isTrue();

        EmbeddedChannel spent = new EmbeddedChannel();
        NettyConnections.detach(spent, false, "idle");
        assertThat(spent.isOpen()).isFalse();
    }
}
