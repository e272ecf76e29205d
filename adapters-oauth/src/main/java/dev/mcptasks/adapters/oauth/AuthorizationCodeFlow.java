package dev.mcptasks.adapters.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The authorization code grant with PKCE S256 (OAuth 2.1, RFC 7636) for a native app (RFC 8252): a loopback
 * redirect, the browser opened on the authorization url, the {@code state} checked, the code exchanged with the
 * verifier. The client is the configured one, else a Client ID Metadata Document url when the server supports
 * those, else one registered earlier at the same server, else one registered now (RFC 7591).
 */
final class AuthorizationCodeFlow {
    private final String server;
    private final OAuthSettings settings;
    private final OAuthContext context;
    private final ClientAssertion assertion;

    AuthorizationCodeFlow(String server, OAuthSettings settings, OAuthContext context, ClientAssertion assertion) {
        this.server = server;
        this.settings = settings;
        this.context = context;
        this.assertion = assertion;
    }

    record Result(TokenClient.Tokens tokens, OAuthClient client) {
    }

    Result run(Discovery.Discovered discovered, List<String> scopes, OAuthClient registered, Browser browser,
            PrintStream progress) {
        AuthServerMetadata as = discovered.server();
        if (as.authorizationEndpoint() == null) {
            throw new OAuthFailure("the authorization server has no authorization_endpoint");
        }
        if (!as.supportsS256()) {
            throw new OAuthFailure("the authorization server does not list S256 in code_challenge_methods_supported: "
                    + "refusing an authorization code flow without PKCE");
        }
        String state = Pkce.random(24);
        try (LoopbackRedirect redirect = new LoopbackRedirect(settings.redirectPort(), state)) {
            URI redirectUri = redirect.redirectUri();
            OAuthClient client = client(as, registered, redirectUri);
            Pkce pkce = Pkce.create();
            Map<String, String> query = new LinkedHashMap<>();
            query.put("response_type", "code");
            query.put("client_id", client.clientId());
            query.put("redirect_uri", redirectUri.toString());
            query.put("code_challenge", pkce.challenge());
            query.put("code_challenge_method", "S256");
            query.put("state", state);
            if (!scopes.isEmpty()) {
                query.put("scope", Scopes.join(scopes));
            }
            query.put("resource", discovered.resource().toString());
            URI url = URI.create(as.authorizationEndpoint() + (as.authorizationEndpoint().getRawQuery() == null
                    ? "?" : "&") + OAuthHttp.formEncode(query));
            if (progress != null) {
                progress.println("Authorize server '" + server + "' in the browser: " + url);
            }
            if (browser != null) {
                browser.open(url);
            }
            // only the redirect with this state settles the wait (LoopbackRedirect ignores any other request)
            Map<String, String> answer = redirect.await(context.redirectTimeout());
            if (answer.containsKey("error")) {
                throw new OAuthFailure("the authorization server refused: " + answer.get("error")
                        + (answer.containsKey("error_description")
                                ? " (" + TokenClient.oneLine(answer.get("error_description")) + ")" : ""));
            }
            String code = answer.get("code");
            if (code == null || code.isEmpty()) {
                throw new OAuthFailure("the authorization redirect carried no code");
            }
            Map<String, String> grant = new LinkedHashMap<>();
            grant.put("grant_type", "authorization_code");
            grant.put("code", code);
            grant.put("redirect_uri", redirectUri.toString());
            grant.put("code_verifier", pkce.verifier());
            grant.put("resource", discovered.resource().toString());
            TokenClient.Tokens tokens = new TokenClient(context.http()).request(as.tokenEndpoint(), as.audience(),
                    client, assertion, grant, scopes, context.clock().now());
            return new Result(tokens, client);
        }
    }

    private OAuthClient client(AuthServerMetadata as, OAuthClient registered, URI redirectUri) {
        if (settings.clientId() != null) {
            return new OAuthClient(settings.clientId(), settings.clientSecret(),
                    OAuthClient.chooseMethod(settings, as), null);
        }
        if (settings.clientMetadataUrl() != null && as.cimdSupported()) {
            return new OAuthClient(settings.clientMetadataUrl().toString(), null, "none", as.issuer());
        }
        if (registered != null && registered.clientId() != null && java.util.Objects.equals(registered.issuer(),
                as.issuer())) {
            return registered;
        }
        if (as.registrationEndpoint() == null) {
            throw new OAuthFailure("the authorization server offers no dynamic registration"
                    + (as.cimdSupported() ? " (it takes Client ID Metadata Documents: set oauth.clientMetadataUrl)"
                            : "") + ": configure oauth.clientId");
        }
        return register(as, redirectUri);
    }

    /** Dynamic client registration (RFC 7591) of a native app with a loopback redirect (any port, RFC 8252 7.3). */
    private OAuthClient register(AuthServerMetadata as, URI redirectUri) {
        String method = settings.tokenEndpointAuthMethod() != null ? settings.tokenEndpointAuthMethod()
                : as.authMethods().contains("none") || as.authMethods().isEmpty() ? "none"
                : as.supports("client_secret_basic") ? "client_secret_basic"
                : as.supports("client_secret_post") ? "client_secret_post" : "none";
        ObjectNode body = OAuthHttp.JSON.createObjectNode();
        body.put("client_name", "mcp-tasks");
        body.putArray("redirect_uris").add(redirectUri.toString());
        body.putArray("grant_types").add("authorization_code").add("refresh_token");
        body.putArray("response_types").add("code");
        body.put("token_endpoint_auth_method", method);
        if (!settings.scopes().isEmpty()) {
            body.put("scope", Scopes.join(settings.scopes()));
        }
        OAuthHttp.Reply reply = context.http().postJson(as.registrationEndpoint(), body.toString(), Map.of());
        if (!reply.ok()) {
            throw new OAuthFailure("the dynamic client registration at " + as.registrationEndpoint()
                    + " was refused (HTTP " + reply.status() + ")");
        }
        var json = reply.json("the registration response");
        String clientId = json.path("client_id").asText(null);
        if (clientId == null || clientId.isBlank()) {
            throw new OAuthFailure("the registration response has no client_id");
        }
        String secret = json.path("client_secret").asText(null);
        String granted = json.path("token_endpoint_auth_method").asText(null);
        if (granted == null) {
            granted = secret == null ? "none"
                    : as.supports("client_secret_basic") ? "client_secret_basic" : "client_secret_post";
        }
        return new OAuthClient(clientId, secret, granted, as.issuer());
    }

    static String describe(List<String> scopes) {
        StringJoiner text = new StringJoiner(" ", "[", "]");
        scopes.forEach(text::add);
        return text.toString();
    }
}
