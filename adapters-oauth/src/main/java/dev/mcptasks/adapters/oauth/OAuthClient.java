package dev.mcptasks.adapters.oauth;

/**
 * The OAuth client this runtime is at one authorization server: a configured id, a Client ID Metadata Document url,
 * or a dynamically registered id.
 *
 * @param authMethod how it authenticates at the token endpoint ({@code none} for public clients)
 * @param issuer the authorization server it is registered at (null for a configured client: valid anywhere)
 */
record OAuthClient(String clientId, String clientSecret, String authMethod, String issuer) {

    @Override
    public String toString() {
        return "OAuthClient[clientId=" + clientId + ", clientSecret=" + (clientSecret == null ? "none" : "(redacted)")
                + ", authMethod=" + authMethod + ", issuer=" + issuer + "]";
    }

    /**
     * The token endpoint auth method of a configured client: the configured one, else what the server supports of
     * what the client has (a key: private_key_jwt; a secret: basic, then post; nothing: none).
     */
    static String chooseMethod(OAuthSettings settings, AuthServerMetadata server) {
        if (settings.tokenEndpointAuthMethod() != null) {
            return settings.tokenEndpointAuthMethod();
        }
        if (settings.privateKeyPem() != null) {
            return "private_key_jwt";
        }
        if (settings.clientSecret() != null) {
            if (server.supports("client_secret_basic")) {
                return "client_secret_basic";
            }
            return server.supports("client_secret_post") ? "client_secret_post" : "client_secret_basic";
        }
        return "none";
    }
}
