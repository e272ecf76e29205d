package dev.mcptasks.adapters.oauth;

import java.net.URI;
import java.util.List;
import java.util.Set;

/**
 * OAuth configuration of one HTTP MCP server.
 *
 * @param grant {@code client_credentials} (machine to machine) or {@code authorization_code} (acts for a person)
 * @param clientId the pre-registered client id, or null to register (a Client ID Metadata Document when
 *     {@code clientMetadataUrl} is set and the authorization server supports it, else dynamic registration)
 * @param clientSecret the client secret, or null
 * @param tokenEndpointAuthMethod {@code client_secret_basic}, {@code client_secret_post}, {@code private_key_jwt},
 *     {@code none}, or null to choose from the authorization server's metadata
 * @param privateKeyPem a PKCS#8 PEM private key for {@code private_key_jwt}, or null
 * @param signingAlgorithm {@code ES256} or {@code RS256} for {@code private_key_jwt} (null: from the key type)
 * @param scopes the scopes to ask for; null or empty means from the challenge or {@code scopes_supported}
 * @param clientMetadataUrl the url of this client's Client ID Metadata Document, or null
 * @param authorizationServer the authorization server issuer, overriding discovery, or null
 * @param redirectPort the loopback redirect port for {@code authorization_code}; 0 picks any free port
 * @param browserCommand the command that opens the authorization url (the url is appended as its last argument), or
 *     null: a worker then never starts a browser flow and asks for {@code bin/mcp-tasks auth login}
 */
public record OAuthSettings(String grant, String clientId, String clientSecret, String tokenEndpointAuthMethod,
        String privateKeyPem, String signingAlgorithm, List<String> scopes, URI clientMetadataUrl,
        URI authorizationServer, int redirectPort, String browserCommand) {

    public static final String CLIENT_CREDENTIALS = "client_credentials";
    public static final String AUTHORIZATION_CODE = "authorization_code";

    static final Set<String> AUTH_METHODS =
            Set.of("client_secret_basic", "client_secret_post", "private_key_jwt", "none");
    static final Set<String> ALGORITHMS = Set.of("ES256", "RS256");

    public OAuthSettings {
        if (!CLIENT_CREDENTIALS.equals(grant) && !AUTHORIZATION_CODE.equals(grant)) {
            throw new IllegalArgumentException("oauth grant must be " + CLIENT_CREDENTIALS + " or "
                    + AUTHORIZATION_CODE + ", was " + grant);
        }
        if (clientId != null && clientId.isBlank()) {
            throw new IllegalArgumentException("oauth clientId must not be blank (omit it to register)");
        }
        if (tokenEndpointAuthMethod != null && !AUTH_METHODS.contains(tokenEndpointAuthMethod)) {
            throw new IllegalArgumentException("oauth tokenEndpointAuthMethod must be one of "
                    + "client_secret_basic, client_secret_post, private_key_jwt, none; was " + tokenEndpointAuthMethod);
        }
        if (signingAlgorithm != null && !ALGORITHMS.contains(signingAlgorithm)) {
            throw new IllegalArgumentException("oauth signingAlgorithm must be ES256 or RS256, was "
                    + signingAlgorithm);
        }
        if ("private_key_jwt".equals(tokenEndpointAuthMethod) && (privateKeyPem == null || privateKeyPem.isBlank())) {
            throw new IllegalArgumentException("oauth privateKeyPem is required for private_key_jwt");
        }
        if (("client_secret_basic".equals(tokenEndpointAuthMethod)
                || "client_secret_post".equals(tokenEndpointAuthMethod)) && clientSecret == null) {
            throw new IllegalArgumentException("oauth clientSecret is required for " + tokenEndpointAuthMethod);
        }
        if (CLIENT_CREDENTIALS.equals(grant) && clientId == null) {
            throw new IllegalArgumentException("oauth clientId is required for the client_credentials grant");
        }
        if (CLIENT_CREDENTIALS.equals(grant) && clientSecret == null && privateKeyPem == null) {
            throw new IllegalArgumentException(
                    "oauth clientSecret or privateKeyPem is required for the client_credentials grant");
        }
        if (redirectPort < 0 || redirectPort > 65535) {
            throw new IllegalArgumentException("oauth redirectPort must be 0..65535, was " + redirectPort);
        }
        if (clientMetadataUrl != null && (!"https".equals(clientMetadataUrl.getScheme())
                || clientMetadataUrl.getRawPath() == null || clientMetadataUrl.getRawPath().length() < 2)) {
            // Client ID Metadata Documents: the client id is an https url with a path
            throw new IllegalArgumentException("oauth clientMetadataUrl must be an https url with a path, was "
                    + clientMetadataUrl);
        }
        if (authorizationServer != null && !authorizationServer.isAbsolute()) {
            throw new IllegalArgumentException("oauth authorizationServer must be an absolute url, was "
                    + authorizationServer);
        }
        if (browserCommand != null && browserCommand.isBlank()) {
            browserCommand = null;
        }
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }

    /** Settings of a machine-to-machine client with a secret (the auth method is chosen from the metadata). */
    public static OAuthSettings clientCredentials(String clientId, String clientSecret) {
        return new OAuthSettings(CLIENT_CREDENTIALS, clientId, clientSecret, null, null, null, null, null, null, 0,
                null);
    }

    /** Settings of a client acting for a person that registers itself. */
    public static OAuthSettings authorizationCode(String browserCommand) {
        return new OAuthSettings(AUTHORIZATION_CODE, null, null, null, null, null, null, null, null, 0,
                browserCommand);
    }

    @Override
    public String toString() {
        return "OAuthSettings[grant=" + grant + ", clientId=" + clientId
                + ", clientSecret=" + (clientSecret == null ? "none" : "(redacted)")
                + ", tokenEndpointAuthMethod=" + tokenEndpointAuthMethod
                + ", privateKeyPem=" + (privateKeyPem == null ? "none" : "(redacted)")
                + ", signingAlgorithm=" + signingAlgorithm + ", scopes=" + scopes
                + ", clientMetadataUrl=" + clientMetadataUrl + ", authorizationServer=" + authorizationServer
                + ", redirectPort=" + redirectPort + ", browserCommand=" + browserCommand + "]";
    }
}
