package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.adapters.oauth.OAuthSettings;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import java.net.URI;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The OAuth module is chosen from the configuration, its settings copied from {@code auth}, its key checked. */
class OAuthModulesTest {
    private static AppConfig config(String servers) {
        return new ConfigLoader(Map.of("SECRET", "s3cret")::get, Path.of("."))
                .parse("test.json", "{\"mcpServers\": " + servers + "}");
    }

    @Test
    void withoutAuthThereIsNoModuleAndTheKeyIsNeverLookedUp() {
        AppConfig config = config("{\"plain\": {\"url\": \"http://h/mcp\"}, \"local\": {\"command\": \"node\"}}");

        assertThat(OAuthModules.forServers(config, name -> {
            throw new AssertionError("looked up " + name);
        })).isEmpty();
    }

    @Test
    void everyAuthKeyReachesTheAdaptersSettings() {
        AppConfig config = config("""
                { "s": { "url": "https://h/mcp", "auth": { "clientId": "c", "clientSecret": "${env:SECRET}",
                  "tokenEndpointAuthMethod": "client_secret_post", "scopes": "a b",
                  "clientMetadataUrl": "https://app.example.com/client.json",
                  "authorizationServer": "https://login.example.com", "redirectPort": 8765, "browser": "xdg-open" } } }
                """);

        assertThat(OAuthModules.settings(config.servers().get("s"))).isEqualTo(new OAuthSettings(
                OAuthSettings.AUTHORIZATION_CODE, "c", "s3cret", "client_secret_post", null, null, List.of("a", "b"),
                URI.create("https://app.example.com/client.json"), URI.create("https://login.example.com"), 8765,
                "xdg-open"));
    }

    @Test
    void theKeyIsTheBase64Of32BytesWhiteSpaceIgnored() {
        byte[] key = new byte[32];
        key[0] = 7;
        String encoded = Base64.getEncoder().encodeToString(key);
        AppConfig config = config("{\"s\": {\"url\": \"https://h/mcp\", \"auth\": {}}}");

        assertThat(OAuthModules.sealingKey(name -> " " + encoded.substring(0, 20) + "\n" + encoded.substring(20),
                "s")).isEqualTo(key);
        assertThat(OAuthModules.forServers(config, Map.of(OAuthModules.KEY_VARIABLE, encoded)::get)).isPresent();
        assertThatThrownBy(() -> OAuthModules.forServers(config, Map.of(OAuthModules.KEY_VARIABLE, " ")::get))
                .isInstanceOf(StartupException.class).hasMessageStartingWith("MCP_TASKS_SECRET_KEY is not set:"
                        + " server(s) s use OAuth");
    }
}
