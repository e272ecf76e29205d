package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.mcp.CallMode;
import dev.mcptasks.mcp.McpServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a server's tools are called ({@code callMode}, {@code callModes}) and the bound on a direct call
 * ({@code directCallTimeoutSeconds}), read into the MCP client's settings.
 */
class CallModeConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("."));

    private ServerConfig server(String entry) {
        return loader.parse("test.json", "{\"mcpServers\": {\"s\": " + entry + "}}").servers().get("s");
    }

    private void refused(String entry, String key, String message) {
        assertThatThrownBy(() -> server(entry)).isInstanceOf(ConfigException.class).hasMessageContaining(message)
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }

    @Test
    void byDefaultToolsAreCalledAutomaticallyAndADirectCallMayTakeAnHour() {
        ServerConfig server = server("{\"url\": \"http://127.0.0.1:3001/mcp\"}");
        McpServerSettings settings = server.toMcpSettings();

        assertThat(server.calls()).isEqualTo(CallSettings.defaults());
        assertThat(settings.callMode("anything")).isEqualTo(CallMode.AUTO);
        assertThat(settings.directCallTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(60));
        // the response of a direct call stays silent until the tool is done
        assertThat(settings.spec().readTimeout()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void everyKeyReachesTheClientSettings() {
        ServerConfig server = server("""
                { "command": "node", "callMode": "direct", "callModes": {"research": "task", "sum": "auto"},
                  "directCallTimeoutSeconds": 7200 }
                """);
        McpServerSettings settings = server.toMcpSettings();

        assertThat(server.calls()).isEqualTo(new CallSettings(7200, CallMode.DIRECT,
                Map.of("research", CallMode.TASK, "sum", CallMode.AUTO)));
        assertThat(settings.callMode("echo")).isEqualTo(CallMode.DIRECT);
        assertThat(settings.callMode("research")).isEqualTo(CallMode.TASK);
        assertThat(settings.callMode("sum")).isEqualTo(CallMode.AUTO);
        assertThat(settings.directCallTimeout()).isEqualTo(Duration.ofHours(2));
        assertThat(server.toString()).contains("callMode=direct").contains("directCallTimeoutSeconds=7200");
    }

    @Test
    void aServerThatOnlyMakesTasksKeepsTheToolCallBoundForSilentReads() {
        ServerConfig server = server("{\"url\": \"http://127.0.0.1:3001/mcp\", \"callMode\": \"task\","
                + " \"toolCallTimeoutSeconds\": 90}");

        assertThat(server.toSpec().readTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(server.toMcpSettings().callMode("echo")).isEqualTo(CallMode.TASK);
    }

    @Test
    void badValuesAreRefusedInOneLineNamingTheKey() {
        refused("{\"command\": \"node\", \"callMode\": \"tasks\"}", "mcpServers.s.callMode",
                "mcpServers.s.callMode must be auto, task or direct, was 'tasks'");
        refused("{\"command\": \"node\", \"callMode\": 3}", "mcpServers.s.callMode", "must be a string");
        refused("{\"command\": \"node\", \"callModes\": {\"echo\": \"never\"}}", "mcpServers.s.callModes.echo",
                "mcpServers.s.callModes.echo must be auto, task or direct, was 'never'");
        refused("{\"command\": \"node\", \"callModes\": [\"echo\"]}", "mcpServers.s.callModes", "must be an object");
        for (String value : new String[] {"0", "86401", "\"60\""}) {
            refused("{\"command\": \"node\", \"directCallTimeoutSeconds\": " + value + "}",
                    "mcpServers.s.directCallTimeoutSeconds", "mcpServers.s.directCallTimeoutSeconds");
        }
    }

    @Test
    void theOrdinaryToolsDriverTakesNoCallMode() {
        refused("""
                { "url": "http://127.0.0.1:3001/mcp", "driver": "ordinary-tools", "callMode": "direct",
                  "toolset": { "submit": "start", "status": "status" } }
                """, "mcpServers.s.callMode", "is not valid for a server with 'driver ordinary-tools'");
    }
}
