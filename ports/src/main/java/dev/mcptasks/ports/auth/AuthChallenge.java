package dev.mcptasks.ports.auth;

import java.net.URI;

/**
 * A refusal by an MCP server's HTTP endpoint.
 *
 * @param resource the MCP endpoint that refused (the url the request went to)
 * @param status 401 or 403
 * @param wwwAuthenticate the {@code WWW-Authenticate} header as received (may hold several challenges), or null
 * @param sentAuthorization the {@code Authorization} header the refused request carried, or null: lets the
 *     authorizer tell a stale token (already replaced by a concurrent refresh) from the current one
 */
public record AuthChallenge(URI resource, int status, String wwwAuthenticate, String sentAuthorization) {
    public AuthChallenge {
        if (resource == null) {
            throw new IllegalArgumentException("resource");
        }
        if (status != 401 && status != 403) {
            throw new IllegalArgumentException("a challenge is HTTP 401 or 403, was " + status);
        }
    }

    @Override
    public String toString() {
        return "AuthChallenge[resource=" + resource + ", status=" + status + ", wwwAuthenticate=" + wwwAuthenticate
                + ", sentAuthorization=" + (sentAuthorization == null ? "none" : "(redacted)") + "]";
    }
}
