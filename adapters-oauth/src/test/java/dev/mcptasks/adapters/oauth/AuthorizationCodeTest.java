package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The authorization code grant with PKCE through the loopback redirect, and the clients it can use. */
class AuthorizationCodeTest {
    private FakeOAuthServer as;
    private OAuthFixture fixture;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final PrintStream progress = new PrintStream(out, true, StandardCharsets.UTF_8);

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
        as.close();
    }

    private LoginOutcome login(OAuthSettings settings) {
        fixture = new OAuthFixture(Map.of("s", settings));
        return fixture.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);
    }

    @Test
    void loginRegistersAClientAndExchangesTheCodeWithTheVerifier() {
        LoginOutcome outcome = login(OAuthFixture.authorizationCode(null, null, null, "open"));

        assertThat(outcome).isEqualTo(new LoginOutcome.LoggedIn("s",
                fixture.clock.now().plusSeconds(3600), List.of()));
        assertThat(as.to("/register")).hasSize(1);
        Map<String, String> authorize = as.to("/authorize").get(0).query();
        Map<String, String> token = as.to("/token").get(0).form();
        assertThat(authorize).containsEntry("response_type", "code").containsEntry("client_id", "registered-1")
                .containsEntry("code_challenge_method", "S256").containsEntry("resource", as.base() + "/mcp")
                .doesNotContainKey("scope");
        assertThat(authorize.get("redirect_uri")).matches("http://127\\.0\\.0\\.1:\\d+/callback");
        assertThat(authorize.get("state")).hasSizeGreaterThanOrEqualTo(32);
        assertThat(token).containsEntry("grant_type", "authorization_code").containsEntry("code", "code-0")
                .containsEntry("redirect_uri", authorize.get("redirect_uri"))
                .containsEntry("resource", authorize.get("resource"));
        assertThat(token.get("code_verifier")).hasSize(43);
        assertThat(Pkce.s256(token.get("code_verifier"))).isEqualTo(authorize.get("code_challenge"));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Authorize server 's' in the browser: "
                + as.issuer() + "/authorize?").doesNotContain("token-1");
        assertThat(fixture.authorizer("s").authorization()).isEqualTo("Bearer token-1");
    }

    @Test
    void theRegisteredClientIsStoredAndUsedByTheNextLogin() {
        as.authMethods = List.of("client_secret_post");
        login(OAuthFixture.authorizationCode(null, null, null, "open"));
        OAuthFixture second = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")),
                fixture.store, OAuthFixture.KEY, Duration.ofSeconds(10));
        try {
            LoginOutcome again = second.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);

            assertThat(again).isInstanceOf(LoginOutcome.LoggedIn.class);
            assertThat(as.to("/register")).hasSize(1);
            assertThat(as.to("/token")).hasSize(2).allSatisfy(request -> assertThat(request.form())
                    .containsEntry("client_id", "registered-1").containsEntry("client_secret", "registered-secret"));
        } finally {
            second.close();
        }
    }

    @Test
    void aClientIdMetadataDocumentIsTheClientIdWhenTheServerTakesThem() {
        as.cimdSupported = true;
        URI document = URI.create("https://client.example/mcp-tasks.json");

        LoginOutcome outcome = login(OAuthFixture.authorizationCode(null, null, document, "open"));

        assertThat(outcome).isInstanceOf(LoginOutcome.LoggedIn.class);
        assertThat(as.to("/register")).isEmpty();
        assertThat(as.to("/authorize").get(0).query()).containsEntry("client_id", document.toString());
        assertThat(as.to("/token").get(0).form()).containsEntry("client_id", document.toString());
    }

    @Test
    void aPreRegisteredClientAuthenticatesWithItsSecret() {
        as.registration = false;
        as.authMethods = List.of("client_secret_basic");

        LoginOutcome outcome = login(OAuthFixture.authorizationCode("pre-registered", "pre-secret", null, "open"));

        assertThat(outcome).isInstanceOf(LoginOutcome.LoggedIn.class);
        assertThat(as.to("/register")).isEmpty();
        assertThat(as.to("/token").get(0).authorization()).isEqualTo("Basic "
                + java.util.Base64.getEncoder().encodeToString("pre-registered:pre-secret".getBytes()));
    }

    @Test
    void noRegistrationAndNoClientIdFailsNamingTheSetting() {
        as.registration = false;

        LoginOutcome outcome = login(OAuthFixture.authorizationCode(null, null, null, "open"));

        assertThat(outcome).isInstanceOf(LoginOutcome.Failed.class);
        assertThat(((LoginOutcome.Failed) outcome).reason()).contains("server 's'").contains("oauth.clientId");
    }

    @Test
    void anAuthorizationServerWithoutS256IsRefused() {
        as.codeChallengeMethods = null;

        LoginOutcome outcome = login(OAuthFixture.authorizationCode(null, null, null, "open"));

        assertThat(outcome).isEqualTo(new LoginOutcome.Failed("server 's': the authorization server does not list S256 "
                + "in code_challenge_methods_supported: refusing an authorization code flow without PKCE"));
        assertThat(as.to("/authorize")).isEmpty();
        as.codeChallengeMethods = List.of("plain");
        assertThat(login(OAuthFixture.authorizationCode(null, null, null, "open")))
                .isInstanceOf(LoginOutcome.Failed.class);
    }

    @Test
    void strayRequestsToTheListenerAreIgnoredAndTheLoginWaitsForItsRedirect() {
        java.util.List<Integer> strays = new java.util.concurrent.CopyOnWriteArrayList<>();
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")));
        fixture.browser = url -> {
            String callback = LoopbackRedirect.parse(url.getRawQuery()).get("redirect_uri");
            strays.add(status(URI.create(callback.replace("/callback", "/favicon.ico"))));
            strays.add(status(URI.create(callback + "?code=stolen&state=forged")));
            strays.add(status(URI.create(callback + "?code=stolen")));
            OAuthFixture.follow(url);
        };

        LoginOutcome outcome = fixture.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);

        assertThat(outcome).isInstanceOf(LoginOutcome.LoggedIn.class);
        assertThat(strays).containsExactly(404, 400, 400);
        assertThat(as.to("/token")).singleElement().satisfies(request ->
                assertThat(request.form()).containsEntry("code", "code-0"));
    }

    @Test
    void aHalfSentRequestToTheListenerDoesNotHoldTheRedirect() throws Exception {
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")));
        java.util.List<java.net.Socket> stalled = new java.util.concurrent.CopyOnWriteArrayList<>();
        fixture.browser = url -> {
            URI callback = URI.create(LoopbackRedirect.parse(url.getRawQuery()).get("redirect_uri"));
            try {
                java.net.Socket socket = new java.net.Socket("127.0.0.1", callback.getPort());
                socket.getOutputStream().write("GET /callback?state=".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                stalled.add(socket);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            // not on the login's thread: with the listener held, the redirect's answer would never come
            java.util.concurrent.CompletableFuture.runAsync(() -> OAuthFixture.follow(url));
        };
        try {
            LoginOutcome outcome = fixture.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);

            assertThat(outcome).isInstanceOf(LoginOutcome.LoggedIn.class);
            assertThat(stalled).hasSize(1);
        } finally {
            for (java.net.Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void aRedirectWithAnotherStateNeverSettlesTheLogin() {
        as.redirectParams = params -> Map.of("code", "stolen", "state", "forged");
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")),
                new MemoryCredentialStore(), OAuthFixture.KEY, Duration.ofMillis(500));

        LoginOutcome outcome = fixture.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);

        assertThat(outcome).isInstanceOf(LoginOutcome.Failed.class);
        assertThat(((LoginOutcome.Failed) outcome).reason()).contains("no authorization arrived");
        assertThat(fixture.browserOpens).hasValue(1);
        assertThat(as.to("/token")).isEmpty();
    }

    private static int status(URI url) {
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(url).build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anUnansweredBrowserTimesOutWithAClearMessage() {
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")),
                new MemoryCredentialStore(), OAuthFixture.KEY, Duration.ofMillis(300));
        fixture.browser = url -> { };

        LoginOutcome outcome = fixture.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), progress);

        assertThat(outcome).isInstanceOf(LoginOutcome.Failed.class);
        assertThat(((LoginOutcome.Failed) outcome).reason()).contains("no authorization arrived");
    }

    @Test
    void aWorkerWithoutABrowserCommandAsksForALogin() throws Exception {
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, null)));

        AuthAttempt attempt = await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), null, null)));

        assertThat(attempt).isEqualTo(new AuthAttempt.Refused(
                "server 's' needs a login: run bin/mcp-tasks auth login s"));
        assertThat(fixture.browserOpens).hasValue(0);
        assertThat(as.to("/authorize")).isEmpty();
    }

    @Test
    void aWorkerWithABrowserCommandRunsTheFlowItself() throws Exception {
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")));

        AuthAttempt attempt = await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), null, null)));

        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
        assertThat(fixture.browserOpens).hasValue(1);
    }

    @Test
    void loginProbesTheServerForItsChallenge() {
        as.prmPath = "/elsewhere/prm.json";
        as.wwwAuthenticate = "Bearer error=\"invalid_token\", scope=\"files:read\", resource_metadata=\""
                + as.prmUrl() + "\"";

        LoginOutcome outcome = login(OAuthFixture.authorizationCode(null, null, null, "open"));

        assertThat(outcome).isEqualTo(new LoginOutcome.LoggedIn("s", fixture.clock.now().plusSeconds(3600),
                List.of("files:read")));
        assertThat(as.paths()).startsWith("/mcp", "/elsewhere/prm.json");
        assertThat(as.to("/mcp").get(0).body()).contains("\"method\":\"initialize\"");
        assertThat(as.to("/mcp").get(0).authorization()).isNull();
        assertThat(as.to("/authorize").get(0).query()).containsEntry("scope", "files:read");
    }
}
