package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: an upstream whose 401 names resource metadata that streams without end, or trickles, costs its own
 * server a refused flow with the bound in the reason; memory stays bounded, other servers' flows go on, and no
 * thread dies.
 */
class HostileUpstreamTest {
    private FakeOAuthServer good;
    private HostileUpstream hostile;
    private final List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    private Thread.UncaughtExceptionHandler previous;

    @BeforeEach
    void start() throws Exception {
        good = new FakeOAuthServer();
        hostile = new HostileUpstream();
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> uncaught.add(error));
    }

    @AfterEach
    void stop() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        hostile.close();
        good.close();
    }

    private static OAuthFixture fixture(Duration httpTimeout) {
        return new OAuthFixture(Map.of("hostile", OAuthFixture.clientCredentials(null),
                "good", OAuthFixture.clientCredentials(null)), new MemoryCredentialStore(), OAuthFixture.KEY,
                Duration.ofSeconds(10), httpTimeout);
    }

    private CompletableFuture<AuthAttempt> hostileChallenge(OAuthFixture fixture, String path) {
        return fixture.authorizer("hostile").challenged(unauthorized(good.mcp(),
                "Bearer resource_metadata=\"" + hostile.url(path) + "\"", null));
    }

    @Test
    void anEndlessBodyIsCutAtTheCapWithoutBeingBuffered() throws Exception {
        try (OAuthFixture fixture = fixture(Duration.ofSeconds(20))) {
            AuthAttempt attempt = await(hostileChallenge(fixture, "/endless"));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 'hostile': GET " + hostile.url("/endless")
                    + " answered more than 1048576 bytes; stopped reading at that cap"));
            // the upstream stops once the client cut the connection: what it wrote is what the client took
            assertThat(hostile.finished.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(hostile.written.get()).isLessThan(16L * 1024 * 1024);
            // the same client and executor serve the next server's flow
            assertThat(await(fixture.authorizer("good").challenged(unauthorized(good.mcp(), null, null))))
                    .isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
            assertThat(uncaught).isEmpty();
        }
    }

    @Test
    void aTrickledBodyIsBoundedInTimeHeadersAndBody() throws Exception {
        try (OAuthFixture fixture = fixture(Duration.ofMillis(700))) {
            AuthAttempt attempt = await(hostileChallenge(fixture, "/trickle"));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 'hostile': GET " + hostile.url("/trickle")
                    + " did not answer within 700 ms (headers and body)"));
            assertThat(hostile.finished.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(hostile.written.get()).isLessThan(HostileUpstream.TRICKLE_TICKS);
            assertThat(await(fixture.authorizer("good").challenged(unauthorized(good.mcp(), null, null))))
                    .isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
            assertThat(uncaught).isEmpty();
        }
    }

    @Test
    void aStuckFlowOfOneServerDoesNotHoldAnotherServers() throws Exception {
        try (OAuthFixture fixture = fixture(Duration.ofSeconds(30))) {
            CompletableFuture<AuthAttempt> stuck = hostileChallenge(fixture, "/trickle");
            assertThat(hostile.started.await(20, TimeUnit.SECONDS)).isTrue();

            AuthAttempt other = await(fixture.authorizer("good").challenged(unauthorized(good.mcp(), null, null)));

            assertThat(other).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
            assertThat(stuck).isNotDone();
            hostile.release.countDown();
            assertThat(await(stuck)).isInstanceOf(AuthAttempt.Refused.class);
        }
    }
}
