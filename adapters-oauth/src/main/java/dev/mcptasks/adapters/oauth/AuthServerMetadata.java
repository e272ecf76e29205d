package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * What the client uses of an authorization server's metadata (RFC 8414 / OpenID discovery).
 *
 * @param issuer the issuer (the audience of private_key_jwt assertions)
 * @param authMethods {@code token_endpoint_auth_methods_supported}, or empty when not listed (RFC 8414: then
 *     {@code client_secret_basic})
 * @param registrationEndpoint dynamic registration (RFC 7591), or null
 * @param cimdSupported {@code client_id_metadata_document_supported}
 * @param codeChallengeMethods {@code code_challenge_methods_supported} (empty when absent), or null when there was no
 *     metadata at all (the 2025-03-26 default endpoints)
 */
record AuthServerMetadata(String issuer, URI authorizationEndpoint, URI tokenEndpoint, URI registrationEndpoint,
        List<String> authMethods, boolean cimdSupported, List<String> scopesSupported,
        List<String> codeChallengeMethods) {

    AuthServerMetadata {
        authMethods = List.copyOf(authMethods);
        scopesSupported = List.copyOf(scopesSupported);
        codeChallengeMethods = codeChallengeMethods == null ? null : List.copyOf(codeChallengeMethods);
    }

    /**
     * Whether PKCE with S256 may be used: MCP authorization 2025-11-25 has clients refuse an authorization server
     * whose metadata does not list S256 in {@code code_challenge_methods_supported} (absent means no PKCE). Without
     * any metadata (the 2025-03-26 fallback) there is nothing to check.
     */
    boolean supportsS256() {
        return codeChallengeMethods == null || codeChallengeMethods.contains("S256");
    }

    /** The 2025-03-26 fallback: no metadata, the default endpoints at the server's root. */
    static AuthServerMetadata defaults(URI base) {
        URI root = URI.create(base.getScheme() + "://" + base.getRawAuthority());
        return new AuthServerMetadata(root.toString(), root.resolve("/authorize"), root.resolve("/token"),
                root.resolve("/register"), List.of(), false, List.of(), null);
    }

    static AuthServerMetadata parse(JsonNode json, URI from) {
        URI token = uri(json, "token_endpoint", from, true);
        return new AuthServerMetadata(
                json.path("issuer").isTextual() ? json.path("issuer").asText() : null,
                uri(json, "authorization_endpoint", from, false), token,
                uri(json, "registration_endpoint", from, false), strings(json, "token_endpoint_auth_methods_supported"),
                json.path("client_id_metadata_document_supported").asBoolean(false),
                strings(json, "scopes_supported"), strings(json, "code_challenge_methods_supported"));
    }

    boolean supports(String method) {
        return authMethods.isEmpty() ? "client_secret_basic".equals(method) : authMethods.contains(method);
    }

    /** The audience of a client assertion: the issuer (what the MCP client-credentials extension asks for). */
    String audience() {
        return issuer != null ? issuer : tokenEndpoint.toString();
    }

    static URI uri(JsonNode json, String field, URI from, boolean required) {
        JsonNode value = json.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            if (required) {
                throw new OAuthFailure("the authorization server metadata at " + from + " has no " + field);
            }
            return null;
        }
        try {
            URI uri = URI.create(value.asText());
            if (!uri.isAbsolute()) {
                throw new IllegalArgumentException("not absolute");
            }
            return Endpoints.requireSecure(uri, field);
        } catch (IllegalArgumentException e) {
            throw new OAuthFailure("the metadata at " + from + " has an invalid " + field + ": " + value.asText());
        }
    }

    static List<String> strings(JsonNode json, String field) {
        List<String> values = new ArrayList<>();
        JsonNode array = json.path(field);
        if (array.isArray()) {
            array.forEach(item -> {
                if (item.isTextual()) {
                    values.add(item.asText());
                }
            });
        }
        return values;
    }
}
