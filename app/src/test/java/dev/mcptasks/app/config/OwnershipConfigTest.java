package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings of process-local ownership: the worker staleness bound ({@code runtime.workerStaleAfterSeconds}) and
 * whether a server's tasks are bound to the session that created them ({@code mcpServers.X.sessionBound}).
 */
class OwnershipConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    @Test
    void theWorkerStalenessBoundDefaultsToThirtySecondsAndReachesTheRuntime() {
        assertThat(parse("{}").runtime().toSettings().workerStaleAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(parse("{\"runtime\": {\"workerStaleAfterSeconds\": 45}}").runtime().toSettings()
                .workerStaleAfter()).isEqualTo(Duration.ofSeconds(45));
    }

    @Test
    void aWorkerStalenessBoundOutOfRangeIsRefusedNamingTheKey() {
        for (String value : new String[] {"2", "3601", "\"30\""}) {
            assertThatThrownBy(() -> parse("{\"runtime\": {\"workerStaleAfterSeconds\": " + value + "}}"))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("runtime.workerStaleAfterSeconds")
                    .satisfies(e -> assertThat(((ConfigException) e).key())
                            .isEqualTo("runtime.workerStaleAfterSeconds"));
        }
    }

    @Test
    void anHttpServerIsNotSessionBoundUnlessConfigured() {
        AppConfig config = parse("""
                { "mcpServers": {
                    "plain": { "url": "http://127.0.0.1:3001/mcp" },
                    "bound": { "url": "http://127.0.0.1:3002/mcp", "sessionBound": true } } }
                """);

        assertThat(config.servers().get("plain").sessionBound()).isFalse();
        assertThat(config.servers().get("plain").toMcpSettings().tasksProcessLocal()).isFalse();
        assertThat(config.servers().get("bound").toMcpSettings().tasksProcessLocal()).isTrue();
    }

    @Test
    void aStdioServerIsAlwaysProcessLocal() {
        AppConfig config = parse("""
                { "mcpServers": {
                    "child": { "command": "node" },
                    "stated": { "command": "node", "sessionBound": false } } }
                """);

        assertThat(config.servers().get("child").toMcpSettings().tasksProcessLocal()).isTrue();
        assertThat(config.servers().get("stated").toMcpSettings().tasksProcessLocal()).isTrue();
    }
}
