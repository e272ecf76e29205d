package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.transport.McpTransportException;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** The SSE url split for Netty, and the endpoint event resolved against it under the same-origin rule. */
class HttpTargetTest {
    private final HttpTarget sse = HttpTarget.of("s", URI.create("http://127.0.0.1:3001/sse?k=v"));

    @Test
    void splitsTheUrlAndFillsDefaultPorts() {
        assertThat(sse).isEqualTo(new HttpTarget("http", "127.0.0.1", 3001, "/sse?k=v", "127.0.0.1:3001"));
        assertThat(HttpTarget.of("s", URI.create("https://Example.org"))).isEqualTo(
                new HttpTarget("https", "example.org", 443, "/", "Example.org"));
    }

    @Test
    void aRelativeEndpointResolvesAgainstTheSseUrl() {
        assertThat(sse.resolve("s", "/message?sessionId=abc")).isEqualTo("/message?sessionId=abc");
        assertThat(sse.resolve("s", "message?sessionId=abc")).isEqualTo("/message?sessionId=abc");
        assertThat(HttpTarget.of("s", URI.create("http://h/a/b/sse")).resolve("s", "../messages/"))
                .isEqualTo("/a/messages/");
    }

    @Test
    void anAbsoluteEndpointOfTheSameOriginIsTaken() {
        assertThat(sse.resolve("s", "http://127.0.0.1:3001/message?sessionId=x")).isEqualTo("/message?sessionId=x");
        assertThat(HttpTarget.of("s", URI.create("https://example.org/sse"))
                .resolve("s", "https://EXAMPLE.org:443/m")).isEqualTo("/m");
    }

    @Test
    void anotherOriginIsRefusedWithAClearError() {
        for (String other : new String[] {"http://127.0.0.1:3002/message", "https://127.0.0.1:3001/message",
                "http://evil.example/message", "//evil.example/message"}) {
            assertThatThrownBy(() -> sse.resolve("s", other)).as(other)
                    .isInstanceOf(McpTransportException.class)
                    .hasMessageContaining("server 's'").hasMessageContaining("another origin")
                    .hasMessageContaining("http://127.0.0.1:3001");
        }
    }

    @Test
    void aMalformedEndpointIsRefused() {
        assertThatThrownBy(() -> sse.resolve("s", "http://[bad")).isInstanceOf(McpTransportException.class)
                .hasMessageContaining("not a valid url");
    }
}
