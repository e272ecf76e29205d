package dev.mcptasks.app.config;

import java.net.URI;
import java.util.List;

/**
 * A server's {@code auth} object: how mcp-tasks obtains OAuth 2.1 tokens for an HTTP MCP server (MCP authorization,
 * 2025-11-25). {@link #toString()} never prints the client secret nor the private key.
 *
 * @param grant {@code grant}: client credentials (machine to machine) or authorization code with PKCE (a person logs
 *     in once with {@code mcp-tasks auth login}); authorization code when absent
 * @param clientId {@code clientId}: a pre-registered client, or null (a client id metadata document, or dynamic
 *     registration, supplies one)
 * @param clientSecret {@code clientSecret}, resolved ({@code ${env:NAME}}), or null
 * @param tokenEndpointAuthMethod {@code tokenEndpointAuthMethod} ({@code client_secret_basic}, {@code client_secret_post},
 *     {@code private_key_jwt} or {@code none}), or null: chosen from the credentials and the authorization server's
 *     metadata
 * @param privateKeyPem the PKCS#8 PEM of {@code privateKey} or {@code privateKeyFile}, or null
 * @param signingAlgorithm {@code signingAlgorithm} of the client assertion (e.g. {@code ES256}), or null: from the key
 * @param scopes {@code scopes} to request, or empty: the server's challenge or metadata decides
 * @param clientMetadataUrl {@code clientMetadataUrl}: the https url of this client's metadata document, used as its
 *     client id where the authorization server supports it, or null
 * @param authorizationServer {@code authorizationServer}: the issuer to use instead of the one discovered, or null
 * @param redirectPort {@code redirectPort}: the loopback port of the login's redirect listener, 0 for any free port
 * @param browser {@code browser}: the command that opens the login url (the url is its last argument), or null
 */
public record AuthConfig(Grant grant, String clientId, String clientSecret, String tokenEndpointAuthMethod,
        String privateKeyPem, String signingAlgorithm, List<String> scopes, URI clientMetadataUrl,
        URI authorizationServer, int redirectPort, String browser) {

    /** The only {@code type} so far. */
    public static final String OAUTH = "oauth";

    /** The OAuth grant a server's tokens come from. */
    public enum Grant {
        CLIENT_CREDENTIALS("client_credentials"),
        AUTHORIZATION_CODE("authorization_code");

        private final String wireName;

        Grant(String wireName) {
            this.wireName = wireName;
        }

        /** The value as written in the configuration and in OAuth requests. */
        public String wireName() {
            return wireName;
        }
    }

    public AuthConfig {
        scopes = List.copyOf(scopes);
        if (grant == null) {
            throw new IllegalArgumentException("grant");
        }
        if (redirectPort < 0 || redirectPort > 65_535) {
            throw new IllegalArgumentException("redirectPort must be 0..65535, was " + redirectPort);
        }
    }

    /** The same settings with another {@code browser} command ({@code auth login --browser}). */
    public AuthConfig withBrowser(String command) {
        return new AuthConfig(grant, clientId, clientSecret, tokenEndpointAuthMethod, privateKeyPem, signingAlgorithm,
                scopes, clientMetadataUrl, authorizationServer, redirectPort, command);
    }

    @Override
    public String toString() {
        return "AuthConfig[type=" + OAUTH + ", grant=" + grant.wireName() + ", clientId=" + clientId
                + ", clientSecret=" + (clientSecret == null ? "none" : "(redacted)")
                + ", tokenEndpointAuthMethod=" + tokenEndpointAuthMethod
                + ", privateKey=" + (privateKeyPem == null ? "none" : "(redacted)")
                + ", signingAlgorithm=" + signingAlgorithm + ", scopes=" + scopes
                + ", clientMetadataUrl=" + clientMetadataUrl + ", authorizationServer=" + authorizationServer
                + ", redirectPort=" + redirectPort + ", browser=" + browser + "]";
    }
}
