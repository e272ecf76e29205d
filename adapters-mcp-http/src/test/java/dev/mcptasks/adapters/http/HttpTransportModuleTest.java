package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.inject.Guice;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.TypeLiteral;
import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.TransportModuleContract;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Guice module contributes the factory under its kind, with the optional {@link HttpAuthorizers} when one is
 * bound; the factory refuses what it cannot reach.
 */
class HttpTransportModuleTest extends TransportModuleContract {
    @Override
    protected Module module() {
        return new HttpTransportModule();
    }

    @Override
    protected String kind() {
        return "http";
    }

    @Override
    protected McpServerSpec server() {
        return McpServerSpec.http("h", URI.create("https://example.org/mcp"), Map.of());
    }

    @Override
    protected HttpAuthorizers authorizersOf(McpTransportFactory factory) {
        return ((HttpTransportFactory) factory).authorizers();
    }

    @Test
    void bindsTheFactoryUnderHttp() {
        Map<String, McpTransportFactory> factories = Guice.createInjector(binder -> binder.requireExplicitBindings(),
                new HttpTransportModule()).getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}));

        McpTransportFactory factory = factories.get("http");
        assertThat(factory.kind()).isEqualTo("http");
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("https://example.org/mcp"), Map.of()))).isTrue();
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("ftp://example.org/mcp"), Map.of()))).isFalse();
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("https://example.org/mcp"), Map.of())
                .withTransport("http"))).isTrue();
        assertThat(factory.supports(McpServerSpec.sse("h", URI.create("https://example.org/sse"), Map.of())))
                .as("a server configured for the legacy SSE transport").isFalse();
        assertThat(factory.supports(McpServerSpec.stdio("s", "cat", List.of(), Map.of()))).isFalse();
        assertThatThrownBy(() -> factory.create(McpServerSpec.stdio("s", "cat", List.of(), Map.of())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'s'");
    }

    @Test
    void endpointFillsDefaultPortsAndKeepsTheQuery() {
        assertThat(HttpTarget.of("x", URI.create("https://example.org/a/mcp?k=v")))
                .isEqualTo(new HttpTarget("https", "example.org", 443, "/a/mcp?k=v", "example.org"));
        assertThat(HttpTarget.of("x", URI.create("http://127.0.0.1:8080")))
                .isEqualTo(new HttpTarget("http", "127.0.0.1", 8080, "/", "127.0.0.1:8080"));
    }
}
