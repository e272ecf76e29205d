package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.core.runtime.RuntimeSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bound of one notification sink call ({@code runtime.notificationTimeoutSeconds}) and of an HTTP server's
 * concurrent connections ({@code mcpServers.X.maxConnections}); and that every runtime and server key, the
 * ownership ones included, shows in the configuration's printed form.
 */
class ConnectionAndSinkConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.of("TOKEN", "s3cret")::get, Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    @Test
    void theNotificationTimeoutDefaultsToThirtySecondsAndBoundsTheSinkCall() {
        assertThat(parse("{}").runtime().toSettings().sinkTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(parse("{}").runtime().toSettings()).isEqualTo(RuntimeSettings.defaults());
        assertThat(parse("{\"runtime\": {\"notificationTimeoutSeconds\": 45}}").runtime().toSettings().sinkTimeout())
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(parse("{\"runtime\": {\"notificationTimeoutSeconds\": 1}}").runtime().toSettings().sinkTimeout())
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(parse("{\"runtime\": {\"notificationTimeoutSeconds\": 600}}").runtime().toSettings()
                .sinkTimeout()).isEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void aNotificationTimeoutOutOfRangeIsRefusedNamingTheKey() {
        for (String value : new String[] {"0", "601", "-5"}) {
            assertError("{\"runtime\": {\"notificationTimeoutSeconds\": " + value + "}}",
                    "runtime.notificationTimeoutSeconds", "between 1 and 600, was " + value);
        }
        assertError("{\"runtime\": {\"notificationTimeoutSeconds\": \"30\"}}", "runtime.notificationTimeoutSeconds",
                "must be an integer");
    }

    @Test
    void anHttpServersConnectionBoundDefaultsToSixteenAndReachesTheTransportSpec() {
        AppConfig config = parse("""
                { "mcpServers": {
                    "plain": { "url": "http://127.0.0.1:3001/mcp" },
                    "narrow": { "url": "http://127.0.0.1:3002/mcp", "maxConnections": 2 },
                    "widest": { "url": "http://127.0.0.1:3003/mcp", "maxConnections": 1024 } } }
                """);

        assertThat(config.servers().get("plain").toSpec().maxConnections()).isEqualTo(16);
        assertThat(config.servers().get("narrow").toSpec().maxConnections()).isEqualTo(2);
        assertThat(config.servers().get("narrow").toMcpSettings().spec().maxConnections()).isEqualTo(2);
        assertThat(config.servers().get("widest").toSpec().maxConnections()).isEqualTo(1024);
    }

    @Test
    void aConnectionBoundOutOfRangeIsRefusedNamingTheKey() {
        for (String value : new String[] {"0", "1025", "-1"}) {
            assertError("{\"mcpServers\": {\"s\": {\"url\": \"http://h/mcp\", \"maxConnections\": " + value + "}}}",
                    "mcpServers.s.maxConnections", "between 1 and 1024, was " + value);
        }
    }

    @Test
    void aConnectionBoundOnAStdioServerIsRefused() {
        // a child process has one pipe, no connections: the key there is a mistake, as headers would be
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"node\", \"maxConnections\": 4}}}",
                "mcpServers.s.maxConnections", "not valid for a server with 'command'");
    }

    @Test
    void everySettingShowsInThePrintedConfigurationAndNoSecretDoes() {
        String printed = parse("""
                { "database": { "url": "jdbc:postgresql://db/tasks", "user": "mcp", "password": "${env:TOKEN}" },
                  "runtime": { "workerStaleAfterSeconds": 45, "notificationTimeoutSeconds": 17 },
                  "mcpServers": {
                    "remote": { "url": "http://h/mcp", "headers": { "Authorization": "Bearer ${env:TOKEN}" },
                                "sessionBound": true, "maxConnections": 3 } } }
                """).toString();

        assertThat(printed).contains("workerStaleAfterSeconds=45", "notificationTimeoutSeconds=17",
                "sessionBound=true", "maxConnections=3", "Authorization", "password=***").doesNotContain("s3cret");
    }

    private void assertError(String json, String key, String messagePart) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(messagePart)
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
