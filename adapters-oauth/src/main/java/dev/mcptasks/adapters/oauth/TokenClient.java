package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Token requests (RFC 6749 section 3.2) with the client's authentication method applied. */
final class TokenClient {
    private final OAuthHttp http;

    TokenClient(OAuthHttp http) {
        this.http = http;
    }

    /** A successful token response. */
    record Tokens(String accessToken, String refreshToken, Instant expiresAt, List<String> scopes) {
        @Override
        public String toString() {
            return "Tokens[(redacted), expiresAt=" + expiresAt + ", scopes=" + scopes + "]";
        }
    }

    /**
     * Posts {@code grant} (grant_type and its parameters) to the token endpoint.
     *
     * @param requested the scopes asked for: the granted ones when the response names none (RFC 6749 5.1)
     * @param assertion the signer for private_key_jwt, or null
     */
    Tokens request(URI tokenEndpoint, String audience, OAuthClient client, ClientAssertion assertion,
            Map<String, String> grant, List<String> requested, Instant now) {
        Map<String, String> form = new LinkedHashMap<>(grant);
        Map<String, String> headers = new LinkedHashMap<>();
        String method = client.authMethod() == null ? "none" : client.authMethod();
        switch (method) {
            case "client_secret_basic" -> headers.put("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (OAuthHttp.encode(client.clientId()) + ":" + OAuthHttp.encode(nonNull(client.clientSecret())))
                            .getBytes(StandardCharsets.UTF_8)));
            case "client_secret_post" -> {
                form.put("client_id", client.clientId());
                form.put("client_secret", nonNull(client.clientSecret()));
            }
            case "private_key_jwt" -> {
                if (assertion == null) {
                    throw new OAuthFailure("private_key_jwt needs oauth privateKeyPem");
                }
                form.put("client_id", client.clientId());
                form.put("client_assertion_type", ClientAssertion.TYPE);
                form.put("client_assertion", assertion.sign(client.clientId(), audience, now));
            }
            default -> form.put("client_id", client.clientId());
        }
        OAuthHttp.Reply reply = http.postForm(tokenEndpoint, form, headers);
        String grantType = grant.get("grant_type");
        if (!reply.ok()) {
            JsonNode error = parseError(reply);
            String code = error == null ? null : error.path("error").asText(null);
            String description = error == null ? null : error.path("error_description").asText(null);
            throw new OAuthFailure.TokenError(code, "the token endpoint refused the " + grantType + " request (HTTP "
                    + reply.status() + (code == null ? "" : ", " + code) + (description == null ? "" : ": "
                            + oneLine(description)) + ")");
        }
        JsonNode json = reply.json("the token response to " + grantType);
        String access = json.path("access_token").asText(null);
        if (access == null || access.isBlank()) {
            throw new OAuthFailure("the token response to " + grantType + " has no access_token");
        }
        String type = json.path("token_type").asText("Bearer");
        if (!type.toLowerCase(Locale.ROOT).equals("bearer")) {
            throw new OAuthFailure("the token response to " + grantType + " has token_type " + type
                    + "; only Bearer is supported");
        }
        Instant expiresAt = json.path("expires_in").canConvertToLong() && json.path("expires_in").asLong() > 0
                ? now.plusSeconds(json.path("expires_in").asLong()) : null;
        List<String> scopes = json.path("scope").isTextual() ? Scopes.split(json.path("scope").asText()) : requested;
        return new Tokens(access, json.path("refresh_token").asText(null), expiresAt, scopes);
    }

    private static JsonNode parseError(OAuthHttp.Reply reply) {
        try {
            JsonNode json = OAuthHttp.JSON.readTree(reply.body());
            return json != null && json.isObject() ? json : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static String nonNull(String secret) {
        if (secret == null) {
            throw new OAuthFailure("the client has no secret for its authentication method");
        }
        return secret;
    }

    static String oneLine(String text) {
        String line = text.replaceAll("[\\r\\n]+", " ").trim();
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
