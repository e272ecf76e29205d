package dev.mcptasks.adapters.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Guice;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Guice module contributes the factory under its kind. */
class StdioTransportModuleTest {
    @Test
    void bindsTheFactoryUnderStdio() {
        Map<String, McpTransportFactory> factories = Guice.createInjector(binder -> binder.requireExplicitBindings(),
                new StdioTransportModule()).getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}));

        McpTransportFactory factory = factories.get("stdio");
        assertThat(factory.kind()).isEqualTo("stdio");
        assertThat(factory.supports(McpServerSpec.stdio("s", "cat", List.of(), Map.of()))).isTrue();
        assertThat(factory.supports(McpServerSpec.http("h", URI.create("http://localhost/mcp"), Map.of()))).isFalse();
    }
}
