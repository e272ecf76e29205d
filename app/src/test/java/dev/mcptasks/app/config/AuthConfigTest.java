package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server's {@code auth} object: every key read, every mistake one line naming the server and the key. */
class AuthConfigTest {
    private static final String PEM = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n"
            + "-----END PRIVATE KEY-----\n";

    @TempDir
    Path dir;

    private ConfigLoader loader() {
        return new ConfigLoader(Map.of("CLIENT_SECRET", "sekrit-value", "CLIENT_KEY", PEM)::get, dir);
    }

    private ServerConfig server(String entry) {
        return loader().parse("test.json", "{\"mcpServers\": {\"s\": " + entry + "}}").servers().get("s");
    }

    private AuthConfig auth(String auth) {
        return server("{\"url\": \"https://mcp.example.com/mcp\", \"auth\": " + auth + "}").auth();
    }

    private void refused(String auth, String key, String message) {
        refusedServer("{\"url\": \"https://mcp.example.com/mcp\", \"auth\": " + auth + "}", key, message);
    }

    private void refusedServer(String entry, String key, String message) {
        assertThatThrownBy(() -> server(entry)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message).hasMessageNotContaining("\n")
                .hasMessageNotContaining("sekrit-value").hasMessageNotContaining("MIGHAgEA")
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }

    @Test
    void aFullAuthorizationCodeEntryIsReadWithSecretsResolvedAndNeverPrinted() {
        ServerConfig server = server("""
                { "url": "https://mcp.example.com/mcp",
                  "auth": { "type": "oauth", "grant": "authorization_code", "clientId": "my-client",
                            "clientSecret": "${env:CLIENT_SECRET}", "tokenEndpointAuthMethod": "client_secret_post",
                            "scopes": ["mcp:read", "mcp:write"],
                            "clientMetadataUrl": "https://app.example.com/oauth/client.json",
                            "authorizationServer": "https://login.example.com/tenant1",
                            "redirectPort": 8765, "browser": "firefox --new-window" } }
                """);

        assertThat(server.hasAuth()).isTrue();
        assertThat(server.auth()).isEqualTo(new AuthConfig(AuthConfig.Grant.AUTHORIZATION_CODE, "my-client",
                "sekrit-value", "client_secret_post", null, null, List.of("mcp:read", "mcp:write"),
                URI.create("https://app.example.com/oauth/client.json"),
                URI.create("https://login.example.com/tenant1"), 8765, "firefox --new-window"));
        assertThat(server.toString()).contains("grant=authorization_code", "clientId=my-client",
                "clientSecret=(redacted)").doesNotContain("sekrit-value");
    }

    @Test
    void aClientCredentialsEntryWithAPrivateKeyFromTheEnvironmentOrAFile() throws IOException {
        AuthConfig fromEnvironment = auth("""
                { "grant": "client_credentials", "clientId": "robot", "privateKey": "${env:CLIENT_KEY}",
                  "signingAlgorithm": "ES256", "scopes": "mcp:read  mcp:write mcp:read" }
                """);
        Files.writeString(dir.resolve("client.pem"), PEM);
        AuthConfig fromFile = auth("""
                { "grant": "client_credentials", "clientId": "robot", "privateKeyFile": "client.pem",
                  "tokenEndpointAuthMethod": "private_key_jwt" }
                """);

        assertThat(fromEnvironment.grant()).isEqualTo(AuthConfig.Grant.CLIENT_CREDENTIALS);
        assertThat(fromEnvironment.privateKeyPem()).isEqualTo(PEM);
        assertThat(fromEnvironment.signingAlgorithm()).isEqualTo("ES256");
        assertThat(fromEnvironment.scopes()).containsExactly("mcp:read", "mcp:write");
        assertThat(fromEnvironment.toString()).contains("privateKey=(redacted)").doesNotContain("MIGHAgEA");
        assertThat(fromFile.privateKeyPem()).isEqualTo(PEM);
        assertThat(fromFile.tokenEndpointAuthMethod()).isEqualTo("private_key_jwt");
    }

    @Test
    void theDefaultsAreAnAuthorizationCodeLoginWithNothingPreset() {
        AuthConfig auth = auth("{}");

        assertThat(auth).isEqualTo(new AuthConfig(AuthConfig.Grant.AUTHORIZATION_CODE, null, null, null, null, null,
                List.of(), null, null, 0, null));
        assertThat(server("{\"url\": \"http://h/mcp\"}").hasAuth()).isFalse();
    }

    @Test
    void authIsForHttpServersOnlyAndOwnsTheAuthorizationHeader() {
        refusedServer("{\"command\": \"node\", \"auth\": {\"type\": \"oauth\"}}", "mcpServers.s.auth",
                "mcpServers.s.auth is not valid for a server with 'command'");
        refusedServer("{\"url\": \"http://h/mcp\", \"headers\": {\"authorization\": \"Bearer x\"}, \"auth\": {}}",
                "mcpServers.s.headers.authorization", "cannot be set with mcpServers.s.auth");
        refusedServer("{\"url\": \"http://h/mcp\", \"auth\": \"oauth\"}", "mcpServers.s.auth",
                "mcpServers.s.auth must be an object, was a string");
    }

    @Test
    void unknownKeysAndValuesAreNamed() {
        refused("{\"clientID\": \"x\"}", "mcpServers.s.auth.clientID",
                "unknown key 'mcpServers.s.auth.clientID' (allowed here: authorizationServer, browser,");
        refused("{\"type\": \"basic\"}", "mcpServers.s.auth.type", "mcpServers.s.auth.type must be oauth, was 'basic'");
        refused("{\"grant\": \"password\"}", "mcpServers.s.auth.grant",
                "must be client_credentials or authorization_code, was 'password'");
        refused("{\"tokenEndpointAuthMethod\": \"tls_client_auth\"}", "mcpServers.s.auth.tokenEndpointAuthMethod",
                "must be one of client_secret_basic, client_secret_post, private_key_jwt, none, was 'tls_client_auth'");
        refused("{\"privateKey\": \"${env:CLIENT_KEY}\", \"clientId\": \"c\", \"signingAlgorithm\": \"HS256\"}",
                "mcpServers.s.auth.signingAlgorithm", "must be one of ES256, RS256, was 'HS256'");
        refused("{\"redirectPort\": 70000}", "mcpServers.s.auth.redirectPort", "must be between 0 and 65535");
        refused("{\"redirectPort\": \"8080\"}", "mcpServers.s.auth.redirectPort", "must be an integer");
        refused("{\"browser\": \" \"}", "mcpServers.s.auth.browser", "must not be empty");
    }

    @Test
    void scopesMustBeScopeTokens() {
        refused("{\"scopes\": []}", "mcpServers.s.auth.scopes", "must not be empty");
        refused("{\"scopes\": [\"a\", 3]}", "mcpServers.s.auth.scopes[1]", "must be a string");
        refused("{\"scopes\": [\"a\", \"b\\\"c\"]}", "mcpServers.s.auth.scopes[1]", "invalid scope 'b\"c'");
        refused("{\"scopes\": {}}", "mcpServers.s.auth.scopes", "must be an array of strings, was an object");
    }

    @Test
    void urlsMustBeUsable() {
        refused("{\"clientMetadataUrl\": \"http://app.example.com/client.json\"}", "mcpServers.s.auth.clientMetadataUrl",
                "must be an https:// url with a path");
        refused("{\"clientMetadataUrl\": \"https://app.example.com/\"}", "mcpServers.s.auth.clientMetadataUrl",
                "must be an https:// url with a path");
        refused("{\"authorizationServer\": \"ftp://login.example.com\"}", "mcpServers.s.auth.authorizationServer",
                "must be an http:// or https:// url");
        refused("{\"authorizationServer\": \"https://exa mple.com\"}", "mcpServers.s.auth.authorizationServer",
                "is not a valid url");
    }

    @Test
    void clientCredentialsNeedAClientThatAuthenticates() {
        refused("{\"grant\": \"client_credentials\", \"clientSecret\": \"${env:CLIENT_SECRET}\"}",
                "mcpServers.s.auth.clientId", "mcpServers.s.auth.clientId is required with grant client_credentials");
        refused("{\"grant\": \"client_credentials\", \"clientId\": \"robot\"}", "mcpServers.s.auth.clientSecret",
                "(or privateKey) is required with grant client_credentials");
        refused("{\"grant\": \"client_credentials\", \"clientId\": \"robot\", \"clientSecret\": \"x\","
                + " \"browser\": \"firefox\"}", "mcpServers.s.auth.browser", "is not valid with grant client_credentials");
        refused("{\"grant\": \"client_credentials\", \"clientId\": \"robot\", \"clientSecret\": \"x\","
                + " \"redirectPort\": 1234}", "mcpServers.s.auth.redirectPort", "is not valid with grant");
    }

    @Test
    void theClientsCredentialsMustFitTheAuthMethod() {
        refused("{\"clientSecret\": \"${env:CLIENT_SECRET}\"}", "mcpServers.s.auth.clientSecret",
                "needs mcpServers.s.auth.clientId");
        refused("{\"clientId\": \"c\", \"clientSecret\": \"x\", \"privateKey\": \"${env:CLIENT_KEY}\"}",
                "mcpServers.s.auth.clientSecret", "give one");
        refused("{\"clientId\": \"c\", \"privateKey\": \"${env:CLIENT_KEY}\","
                + " \"tokenEndpointAuthMethod\": \"client_secret_basic\"}", "mcpServers.s.auth.tokenEndpointAuthMethod",
                "must be private_key_jwt with a private key");
        refused("{\"clientId\": \"c\", \"tokenEndpointAuthMethod\": \"private_key_jwt\"}",
                "mcpServers.s.auth.privateKey", "is required with tokenEndpointAuthMethod private_key_jwt");
        refused("{\"clientId\": \"c\", \"clientSecret\": \"${env:CLIENT_SECRET}\","
                + " \"tokenEndpointAuthMethod\": \"none\"}", "mcpServers.s.auth.clientSecret", "is never sent");
        refused("{\"clientId\": \"c\", \"tokenEndpointAuthMethod\": \"client_secret_basic\"}",
                "mcpServers.s.auth.clientSecret", "is required with tokenEndpointAuthMethod client_secret_basic");
        refused("{\"clientId\": \"c\", \"clientSecret\": \"x\", \"signingAlgorithm\": \"ES256\"}",
                "mcpServers.s.auth.signingAlgorithm", "applies to a private key, and there is none");
        refused("{\"grant\": \"client_credentials\", \"clientId\": \"c\", \"privateKey\": \"${env:CLIENT_KEY}\","
                + " \"tokenEndpointAuthMethod\": \"none\"}", "mcpServers.s.auth.tokenEndpointAuthMethod",
                "must be private_key_jwt with a private key");
    }

    @Test
    void thePrivateKeyMustBeOnePemFromOnePlace() throws IOException {
        refused("{\"clientId\": \"c\", \"privateKey\": \"${env:MISSING_KEY}\"}", "mcpServers.s.auth.privateKey",
                "refers to environment variable MISSING_KEY, which is not set");
        refused("{\"clientId\": \"c\", \"privateKey\": \"${env:CLIENT_SECRET}\"}", "mcpServers.s.auth.privateKey",
                "must be a PEM private key");
        refused("{\"clientId\": \"c\", \"privateKeyFile\": \"absent.pem\"}", "mcpServers.s.auth.privateKeyFile",
                "names a file that does not exist: absent.pem");
        Files.writeString(dir.resolve("client.pem"), PEM);
        refused("{\"clientId\": \"c\", \"privateKeyFile\": \"client.pem\", \"privateKey\": \"${env:CLIENT_KEY}\"}",
                "mcpServers.s.auth.privateKeyFile", "both give the key: give one");
        Files.writeString(dir.resolve("not-a-key.pem"), "sekrit-value");
        refused("{\"clientId\": \"c\", \"privateKeyFile\": \"not-a-key.pem\"}", "mcpServers.s.auth.privateKeyFile",
                "must be a PEM private key");
    }

    @Test
    void theClientSecretComesFromTheEnvironment() {
        refused("{\"clientId\": \"c\", \"clientSecret\": \"${env:NOT_SET}\"}", "mcpServers.s.auth.clientSecret",
                "mcpServers.s.auth.clientSecret refers to environment variable NOT_SET, which is not set");
    }
}
