package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Refresh on a 401 and ahead of expiry, a refused refresh, and a token another worker refreshed. */
class RefreshTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
    private FakeOAuthServer as;
    private OAuthFixture login;

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
        login = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")));
        assertThat(login.authorizers.login(McpServerSpec.http("s", as.mcp(), Map.of()), QUIET))
                .isInstanceOf(LoginOutcome.LoggedIn.class);
    }

    @AfterEach
    void stop() {
        login.close();
        as.close();
    }

    /** Another process on the same store (a worker), without a browser. */
    private OAuthFixture worker() {
        return new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, null)), login.store,
                OAuthFixture.KEY, Duration.ofSeconds(10));
    }

    @Test
    void aRefusedTokenIsRefreshedWithTheRefreshToken() throws Exception {
        HttpAuthorizer authorizer = login.authorizer("s");

        AuthAttempt attempt = await(authorizer.challenged(unauthorized(as.mcp(), null, "Bearer token-1")));

        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
        assertThat(as.to("/token").get(1).form()).containsEntry("grant_type", "refresh_token")
                .containsEntry("refresh_token", "refresh-1").containsEntry("client_id", "registered-1")
                .containsEntry("resource", as.base() + "/mcp");
        assertThat(as.to("/authorize")).hasSize(1);
    }

    @Test
    void aTokenNearExpiryIsRefreshedAheadWhileTheCurrentOneIsStillUsed() throws Exception {
        HttpAuthorizer authorizer = login.authorizer("s");
        login.clock.advance(Duration.ofSeconds(3600 - 30));

        assertThat(authorizer.authorization()).isEqualTo("Bearer token-1");
        // a 401 for the old token meets the refresh in flight (or its result): no second refresh
        AuthAttempt attempt = await(authorizer.challenged(unauthorized(as.mcp(), null, "Bearer token-1")));

        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
        assertThat(as.to("/token")).hasSize(2);
        assertThat(authorizer.authorization()).isEqualTo("Bearer token-2");
    }

    @Test
    void aRefusedRefreshDropsTheTokenKeepsTheClientAndAsksForALogin() throws Exception {
        as.tokenHandler = request -> "refresh_token".equals(request.form().get("grant_type"))
                ? FakeOAuthServer.error(400, "invalid_grant") : null;
        try (OAuthFixture worker = worker()) {
            AuthAttempt attempt = await(worker.authorizer("s").challenged(unauthorized(as.mcp(), null,
                    "Bearer token-1")));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused(
                    "server 's' needs a login: run bin/mcp-tasks auth login s"));
            assertThat(worker.authorizer("s").authorization()).isNull();
            assertThat(worker.authorizers.status()).containsExactly(new CredentialStatus("s", false, null, false,
                    java.util.List.of()));
            Credential stored = Credential.fromJson(new TokenSeal(OAuthFixture.KEY).open(
                    login.store.load("oauth:s").orElseThrow().sealed(), "oauth:s").plain());
            assertThat(stored.hasToken()).isFalse();
            assertThat(stored.client().clientId()).isEqualTo("registered-1");
        }
    }

    @Test
    void aRefreshAheadTheServerRefusesDropsTheToken() throws Exception {
        as.tokenHandler = request -> "refresh_token".equals(request.form().get("grant_type"))
                ? FakeOAuthServer.error(400, "invalid_grant") : null;
        try (OAuthFixture worker = worker()) {
            worker.authorizers.status(); // reads the stored token
            HttpAuthorizer authorizer = worker.authorizer("s");
            worker.clock.advance(Duration.ofSeconds(3600 - 30));

            assertThat(authorizer.authorization()).isEqualTo("Bearer token-1");
            AuthAttempt attempt = await(authorizer.challenged(unauthorized(as.mcp(), null, "Bearer token-1")));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused(
                    "server 's' needs a login: run bin/mcp-tasks auth login s"));
            assertThat(authorizer.authorization()).isNull();
            assertThat(as.to("/token")).hasSize(2);
        }
    }

    @Test
    void aChallengeThatMeetsAFailingRefreshAheadRefreshesItself() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.CountDownLatch challenged = new java.util.concurrent.CountDownLatch(1);
        as.tokenHandler = request -> {
            if (!"refresh_token".equals(request.form().get("grant_type")) || !failed.compareAndSet(false, true)) {
                return null;
            }
            try {
                // the refresh ahead fails only once the challenge has joined it
                challenged.await(20, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return FakeOAuthServer.error(503, "temporarily_unavailable");
        };
        HttpAuthorizer authorizer = login.authorizer("s");
        login.clock.advance(Duration.ofSeconds(3600 - 30));

        assertThat(authorizer.authorization()).isEqualTo("Bearer token-1");
        var pending = authorizer.challenged(unauthorized(as.mcp(), null, "Bearer token-1"));
        challenged.countDown();
        AuthAttempt attempt = await(pending);

        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
        assertThat(as.to("/token")).hasSize(3);
        // the failed refresh ahead is not repeated by every request
        login.clock.advance(Duration.ofSeconds(1));
        assertThat(authorizer.authorization()).isEqualTo("Bearer token-2");
    }

    @Test
    void aTokenAnotherWorkerRefreshedIsUsedWithoutATokenRequest() throws Exception {
        try (OAuthFixture worker = worker()) {
            AuthAttempt refreshed = await(worker.authorizer("s").challenged(unauthorized(as.mcp(), null,
                    "Bearer token-1")));
            assertThat(refreshed).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));

            AuthAttempt attempt = await(login.authorizer("s").challenged(unauthorized(as.mcp(), null,
                    "Bearer token-1")));

            assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
            assertThat(as.to("/token")).hasSize(2);
        }
    }

    @Test
    void statusAndLogout() {
        assertThat(login.authorizers.status()).containsExactly(new CredentialStatus("s", true,
                login.clock.now().plusSeconds(3600), true, java.util.List.of()));

        assertThat(login.authorizers.logout("s")).isTrue();

        assertThat(login.authorizers.status()).containsExactly(new CredentialStatus("s", false, null, false,
                java.util.List.of()));
        assertThat(login.store.keys()).isEmpty();
        assertThat(login.authorizer("s").authorization()).isNull();
        assertThat(login.authorizers.logout("s")).isFalse();
    }
}
