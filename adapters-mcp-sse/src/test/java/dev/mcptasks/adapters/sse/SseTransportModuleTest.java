package dev.mcptasks.adapters.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Guice;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.TypeLiteral;
import dev.mcptasks.adapters.httpsupport.TransportModuleContract;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Guice module contributes the factory under {@code sse}, with the optional {@link HttpAuthorizers} when one is
 * bound; the factory takes only urls configured for it.
 */
class SseTransportModuleTest extends TransportModuleContract {
    @Override
    protected Module module() {
        return new SseTransportModule();
    }

    @Override
    protected String kind() {
        return "sse";
    }

    @Override
    protected McpServerSpec server() {
        return McpServerSpec.sse("s", URI.create("https://example.org/sse"), Map.of());
    }

    @Override
    protected HttpAuthorizers authorizersOf(McpTransportFactory factory) {
        return ((SseTransportFactory) factory).authorizers();
    }

    @Test
    void bindsTheFactoryUnderSse() {
        Map<String, McpTransportFactory> factories = Guice.createInjector(binder -> binder.requireExplicitBindings(),
                new SseTransportModule()).getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}));

        McpTransportFactory factory = factories.get("sse");
        assertThat(factory.kind()).isEqualTo("sse");
        assertThat(factory.supports(McpServerSpec.sse("s", URI.create("https://example.org/sse"), Map.of()))).isTrue();
        assertThat(factory.supports(McpServerSpec.sse("s", URI.create("ftp://example.org/sse"), Map.of()))).isFalse();
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("https://example.org/mcp"), Map.of())))
                .as("an unconfigured url is Streamable HTTP's first; detection asks for sse explicitly").isFalse();
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("https://example.org/mcp"), Map.of())
                .withTransport("http"))).isFalse();
        assertThat(factory.supports(McpServerSpec.stdio("s", "cat", List.of(), Map.of()))).isFalse();
        assertThatThrownBy(() -> factory.create(McpServerSpec.stdio("s", "cat", List.of(), Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s'");
    }

    @Test
    void theSpecKeepsItsTransportKind() {
        McpServerSpec sse = McpServerSpec.sse("s", URI.create("http://127.0.0.1/sse"), Map.of("Authorization", "x"));

        assertThat(sse.transport()).isEqualTo("sse");
        assertThat(sse.transportDetected()).isFalse();
        assertThat(sse.withMaxConnections(3).transport()).isEqualTo("sse");
        assertThat(sse.toString()).contains("transport=sse").doesNotContain("=x");
        assertThat(McpServerSpec.http("h", URI.create("http://127.0.0.1/mcp"), Map.of()).transportDetected()).isTrue();
        assertThat(McpServerSpec.stdio("c", "cat", List.of(), Map.of()).transport()).isEqualTo("stdio");
        assertThatThrownBy(() -> McpServerSpec.stdio("c", "cat", List.of(), Map.of()).withTransport("sse"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'c'");
    }
}
