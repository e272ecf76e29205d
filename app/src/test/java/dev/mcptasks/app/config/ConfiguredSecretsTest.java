package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfiguredSecretsTest {
    @TempDir
    Path dir;

    @Test
    void aStdioServersEnvironmentGivesOnlyItsSecretNamedValues() {
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("test.json", """
                {"mcpServers": {"s": {"command": "server", "env": {
                    "NODE_ENV": "production", "LOG_LEVEL": "debug", "OPENAI_API_KEY": "sk-abc123",
                    "GITHUB_TOKEN": "ghp_secret", "DB_PASSWORD": "hunter22", "SESSION_COOKIE": "c00kie"}}}}
                """);

        assertThat(ConfiguredSecrets.of(config))
                .contains("sk-abc123", "ghp_secret", "hunter22", "c00kie")
                .doesNotContain("production", "debug");
    }

    @Test
    void headersAndTheDatabasePasswordAreSecrets() {
        AppConfig config = new ConfigLoader(Map.<String, String>of()::get, dir).parse("test.json", """
                {"database": {"url": "jdbc:postgresql://db/tasks?password=pg-pass"},
                 "mcpServers": {"h": {"url": "https://example.test/mcp",
                                      "headers": {"Authorization": "Bearer tok-123", "X-Team": "blue-team"}}}}
                """);

        assertThat(ConfiguredSecrets.of(config)).contains("tok-123", "pg-pass");
    }
}
