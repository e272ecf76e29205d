package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.domain.SubmitPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigMappingTest {
    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("/tmp"));

    @Test
    void defaultRuntimeConfigMapsToTheRuntimeDefaults() {
        assertThat(RuntimeConfig.defaults().toSettings()).isEqualTo(RuntimeSettings.defaults());
    }

    @Test
    void everyRuntimeKeyReachesTheSettings() {
        RuntimeSettings settings = new RuntimeConfig(30, 2, 16, 600, 90, 5, 4096, 10, 12, 7).toSettings();

        assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.pollInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.maxConcurrentControlCalls()).isEqualTo(16);
        assertThat(settings.maxBackoff()).isEqualTo(Duration.ofSeconds(600));
        assertThat(settings.inputRequiredPoll()).isEqualTo(Duration.ofSeconds(90));
        assertThat(settings.degradedAfterErrors()).isEqualTo(5);
        assertThat(settings.maxResultBytes()).isEqualTo(4096);
        assertThat(settings.drain()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.tickInterval()).isEqualTo(RuntimeSettings.defaults().tickInterval());
        assertThat(settings.workerStaleAfter()).isEqualTo(Duration.ofSeconds(12));
        assertThat(settings.sinkTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void serversMapToProfilesInTheDirectory() {
        AppConfig config = loader.parse("test.json", """
                { "mcpServers": {
                    "a": { "command": "x", "taskTtlMs": 5000, "submitPolicy": "atLeastOnce" },
                    "b": { "url": "http://h/mcp", "driver": "ordinary-tools",
                           "toolset": { "submit": "s", "status": "t", "cancel": "c" } } } }
                """);

        assertThat(config.serverDirectory().find("a"))
                .contains(new ServerProfile("a", "mcp-tasks", 5000L, SubmitPolicy.AT_LEAST_ONCE));
        assertThat(config.serverDirectory().find("b"))
                .contains(new ServerProfile("b", "ordinary-tools", null, SubmitPolicy.AT_MOST_ONCE));
        assertThat(config.serverDirectory().find("c")).isEmpty();
    }
}
