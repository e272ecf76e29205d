package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * What is stored (sealed) for one server: the tokens, where to refresh them, and a registered client.
 *
 * @param accessToken null after a refused refresh (the registration is kept)
 * @param expiresAt null when the server gave no lifetime
 * @param scopes the granted scopes (the token response's {@code scope}, else the requested ones)
 * @param requested the scopes the last authorization asked for
 * @param attempts how many authorizations in a row asked for {@code requested} because of insufficient_scope
 *     (bounded by {@link dev.mcptasks.ports.auth.HttpAuthorizer#MAX_CHALLENGES}); stored so that the bound holds
 *     across the login command and the workers
 * @param tokenEndpoint where to refresh
 * @param audience the authorization server's issuer (private_key_jwt audience)
 * @param resource the RFC 8707 resource the tokens are for
 * @param client the client that got the tokens
 */
record Credential(String accessToken, String refreshToken, Instant expiresAt, List<String> scopes,
        List<String> requested, int attempts, URI tokenEndpoint, String audience, URI resource, OAuthClient client) {

    /** Nothing usable: what a login replaces when the stored value cannot be opened. */
    static final Credential NONE = new Credential(null, null, null, null, null, 0, null, null, null, null);

    Credential {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
        requested = requested == null ? List.of() : List.copyOf(requested);
    }

    boolean hasToken() {
        return accessToken != null;
    }

    String header() {
        return accessToken == null ? null : "Bearer " + accessToken;
    }

    /** The same registration and endpoints without tokens (a refused refresh). */
    Credential withoutTokens() {
        return new Credential(null, null, null, List.of(), requested, 0, tokenEndpoint, audience, resource, client);
    }

    /** The same tokens, remembering that {@code scopes} are wanted (no authorization asked for them yet). */
    Credential wanting(List<String> scopes) {
        return new Credential(accessToken, refreshToken, expiresAt, this.scopes, scopes, 0, tokenEndpoint, audience,
                resource, client);
    }

    byte[] toJson() {
        ObjectNode json = OAuthHttp.JSON.createObjectNode();
        json.put("access_token", accessToken);
        json.put("refresh_token", refreshToken);
        if (expiresAt != null) {
            json.put("expires_at", expiresAt.toEpochMilli());
        }
        json.put("scope", Scopes.join(scopes));
        json.put("requested", Scopes.join(requested));
        json.put("attempts", attempts);
        json.put("token_endpoint", tokenEndpoint == null ? null : tokenEndpoint.toString());
        json.put("audience", audience);
        json.put("resource", resource == null ? null : resource.toString());
        if (client != null) {
            json.putObject("client").put("client_id", client.clientId()).put("client_secret", client.clientSecret())
                    .put("auth_method", client.authMethod()).put("issuer", client.issuer());
        }
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Credential fromJson(byte[] bytes) {
        JsonNode json;
        try {
            json = OAuthHttp.JSON.readTree(bytes);
        } catch (IOException e) {
            throw new OAuthFailure("the stored credential is not valid JSON");
        }
        JsonNode client = json.path("client");
        return new Credential(text(json, "access_token"), text(json, "refresh_token"),
                json.path("expires_at").isNumber() ? Instant.ofEpochMilli(json.path("expires_at").asLong()) : null,
                Scopes.split(text(json, "scope")), Scopes.split(text(json, "requested")),
                json.path("attempts").asInt(0), uri(text(json, "token_endpoint")), text(json, "audience"),
                uri(text(json, "resource")),
                client.isObject() ? new OAuthClient(text(client, "client_id"), text(client, "client_secret"),
                        text(client, "auth_method"), text(client, "issuer")) : null);
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.path(field);
        return value.isTextual() ? value.asText() : null;
    }

    private static URI uri(String value) {
        return value == null ? null : URI.create(value);
    }

    @Override
    public String toString() {
        return "Credential[accessToken=" + (accessToken == null ? "none" : "(redacted)") + ", refreshToken="
                + (refreshToken == null ? "none" : "(redacted)") + ", expiresAt=" + expiresAt + ", scopes=" + scopes
                + ", client=" + client + "]";
    }
}
