package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One token request for concurrent challenges; the store's compare-and-set between two workers. */
class ConcurrencyTest {
    private FakeOAuthServer as;

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
    }

    @AfterEach
    void stop() {
        as.close();
    }

    @Test
    void concurrentChallengesShareOneTokenRequest() throws Exception {
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        as.tokenHandler = request -> {
            reached.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        };
        try (OAuthFixture fixture = new OAuthFixture(Map.of("s", OAuthFixture.clientCredentials(null)))) {
            HttpAuthorizer authorizer = fixture.authorizer("s");
            CompletableFuture<AuthAttempt> first = authorizer.challenged(unauthorized(as.mcp(), null, null));
            assertThat(reached.await(20, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<AuthAttempt> second = authorizer.challenged(unauthorized(as.mcp(), null, null));
            assertThat(first).isNotDone();
            release.countDown();

            assertThat(await(first)).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
            assertThat(await(second)).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
            assertThat(as.to("/token")).hasSize(1);
        }
    }

    @Test
    void theWorkerThatLosesTheStoreRaceUsesTheWinnersToken() throws Exception {
        MemoryCredentialStore store = new MemoryCredentialStore();
        try (OAuthFixture a = new OAuthFixture(Map.of("s", OAuthFixture.clientCredentials(null)), store,
                OAuthFixture.KEY, Duration.ofSeconds(10));
                OAuthFixture b = new OAuthFixture(Map.of("s", OAuthFixture.clientCredentials(null)), store,
                        OAuthFixture.KEY, Duration.ofSeconds(10))) {
            // a has fetched token-1 and is about to store it; b fetches and stores token-2 first
            store.beforeCompareAndSet(() -> {
                try {
                    assertThat(await(b.authorizer("s").challenged(unauthorized(as.mcp(), null, null))))
                            .isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            AuthAttempt attempt = await(a.authorizer("s").challenged(unauthorized(as.mcp(), null, null)));

            assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
            assertThat(a.authorizer("s").authorization()).isEqualTo("Bearer token-2");
            assertThat(store.writes).hasValue(1);
            assertThat(Credential.fromJson(new TokenSeal(OAuthFixture.KEY).open(
                    store.load("oauth:s").orElseThrow().sealed(), "oauth:s").plain()).accessToken())
                    .isEqualTo("token-2");
        }
    }
}
