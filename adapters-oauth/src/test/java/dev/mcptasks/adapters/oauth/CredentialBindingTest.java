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

/** Issue 22: a sealed credential opens only for its credential key, and its token goes only to its resource. */
class CredentialBindingTest {
    private FakeOAuthServer a;
    private FakeOAuthServer b;
    private final MemoryCredentialStore store = new MemoryCredentialStore();
    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @BeforeEach
    void start() throws Exception {
        a = new FakeOAuthServer();
        b = new FakeOAuthServer();
    }

    @AfterEach
    void stop() {
        a.close();
        b.close();
    }

    private OAuthFixture worker() {
        return new OAuthFixture(Map.of("a", OAuthFixture.clientCredentials(null),
                "b", OAuthFixture.clientCredentials(null)), store, OAuthFixture.KEY, Duration.ofSeconds(10));
    }

    private void copy(String from, String to) {
        byte[] sealed = store.load(from).orElseThrow().sealed();
        long version = store.load(to).map(value -> value.version()).orElse(0L);
        assertThat(store.compareAndSet(to, version, sealed)).isPositive();
    }

    @Test
    void aRowCopiedToAnotherServersKeyDoesNotOpenAndALoginReplacesIt() throws Exception {
        try (OAuthFixture first = worker()) {
            assertThat(await(first.authorizer("a").challenged(unauthorized(a.mcp(), null, null))))
                    .isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
        }
        copy("oauth:a", "oauth:b");
        try (OAuthFixture worker = worker()) {
            AuthAttempt attempt = await(worker.authorizer("b").challenged(unauthorized(b.mcp(), null, null)));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 'b': the stored credential does not open "
                    + "with MCP_TASKS_SECRET_KEY: it was sealed for another credential than oauth:b (copied from "
                    + "another server?), or it is corrupt; run bin/mcp-tasks auth login b"));
            assertThat(worker.authorizer("b").authorization()).isNull();
            assertThat(b.to("/token")).isEmpty();

            LoginOutcome login = worker.authorizers.login(McpServerSpec.http("b", b.mcp(), Map.of()), progress);

            assertThat(login).isInstanceOf(LoginOutcome.LoggedIn.class);
            assertThat(worker.authorizer("b").authorization()).isEqualTo("Bearer token-1");
            assertThat(b.to("/token")).hasSize(1);
        }
    }

    @Test
    void aServerWhoseUrlNowPointsElsewhereDoesNotSendTheStoredToken() throws Exception {
        try (OAuthFixture first = worker()) {
            await(first.authorizer("a").challenged(unauthorized(a.mcp(), null, null)));
        }
        try (OAuthFixture moved = worker()) {
            // the configuration now names b's url for server 'a'
            assertThat(moved.authorizers.forServer(McpServerSpec.http("a", b.mcp(), Map.of())).authorization())
                    .isNull();

            AuthAttempt attempt = await(moved.authorizer("a").challenged(unauthorized(b.mcp(), null, null)));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 'a': the stored credential is for "
                    + "resource " + a.mcp() + ", not for this server's url " + b.mcp() + " (copied from another "
                    + "server, or the url changed): its token is not sent; run bin/mcp-tasks auth login a"));
            assertThat(moved.authorizer("a").authorization()).isNull();
            assertThat(b.to("/token")).isEmpty();
        }
    }

    @Test
    void aLegacyRowIsUsedOnlyForItsOwnResource() throws Exception {
        store.compareAndSet("oauth:a", 0, TokenSealTest.legacySeal(OAuthFixture.KEY, legacy(a.mcp())));
        store.compareAndSet("oauth:b", 0, TokenSealTest.legacySeal(OAuthFixture.KEY, legacy(a.mcp())));
        try (OAuthFixture worker = worker()) {
            assertThat(await(worker.authorizer("a").challenged(unauthorized(a.mcp(), null, "Bearer stale"))))
                    .isEqualTo(new AuthAttempt.Retry("Bearer legacy-token"));

            AuthAttempt copied = await(worker.authorizer("b").challenged(unauthorized(b.mcp(), null, null)));

            assertThat(copied).isInstanceOf(AuthAttempt.Refused.class);
            assertThat(((AuthAttempt.Refused) copied).reason()).contains("is for resource " + a.mcp());
            assertThat(a.to("/token")).isEmpty();
            assertThat(b.to("/token")).isEmpty();
        }
    }

    private static byte[] legacy(URI resource) {
        return new Credential("legacy-token", null, null, List.of(), List.of(), 0, URI.create(resource + "/token"),
                null, resource, new OAuthClient("cc-client", null, "client_secret_basic", null)).toJson();
    }
}
