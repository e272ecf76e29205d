package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Production wiring installs every transport module; a server configured for the legacy transport is reachable. */
class TransportWiringTest {
    @TempDir
    Path dir;

    @Test
    void theLegacySseTransportIsInstalledAndReachesSseServers() {
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("test.json",
                "{\"database\": {\"url\": \"jdbc:sqlite:" + dir.resolve("tasks.db") + "\"}, \"mcpServers\": {"
                        + "\"legacy\": {\"url\": \"http://127.0.0.1:1/sse\", \"transport\": \"sse\"},"
                        + "\"typed\": {\"url\": \"http://127.0.0.1:1/sse\", \"type\": \"sse\"},"
                        + "\"detected\": {\"url\": \"http://127.0.0.1:1/mcp\"}}}");
        try (Application app = AppRoot.production().openWorker(config, WorkerId.of("w1"))) {
            Map<String, McpTransportFactory> factories = app.injector()
                    .getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {}));
            assertThat(factories).containsKeys("stdio", "http", "sse");
            assertThat(factories.get("sse").supports(config.servers().get("legacy").toSpec())).isTrue();
            assertThat(factories.get("http").supports(config.servers().get("legacy").toSpec())).isFalse();
            assertThat(app.get(McpSessions.class).session("typed")).isPresent();
            assertThat(app.get(McpSessions.class).session("detected")).isPresent();
        }
    }
}
