package dev.mcptasks.adapters.oauth;

import java.time.Instant;
import java.util.List;

/**
 * What is stored for one server (never the token itself).
 *
 * @param server the server name
 * @param present whether a token is stored
 * @param expiresAt when the access token expires, or null (none stored, or no lifetime given)
 * @param refreshable whether a refresh token is stored
 * @param scopes the granted scopes
 */
public record CredentialStatus(String server, boolean present, Instant expiresAt, boolean refreshable,
        List<String> scopes) {
    public CredentialStatus {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }
}
