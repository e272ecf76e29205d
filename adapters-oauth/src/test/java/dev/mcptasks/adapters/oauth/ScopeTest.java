package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.forbidden;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scope selection (challenge, then scopes_supported, else none), step-up on 403, and its bound. */
class ScopeTest {
    private static final java.io.PrintStream QUIET = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
    private FakeOAuthServer as;
    private OAuthFixture fixture;

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")));
    }

    @AfterEach
    void stop() {
        fixture.close();
        as.close();
    }

    private String header(String params) {
        return "Bearer " + params + (params.isEmpty() ? "" : ", ") + "resource_metadata=\"" + as.prmUrl() + "\"";
    }

    private List<String> requestedScopes(int authorization) {
        String scope = as.to("/authorize").get(authorization).query().get("scope");
        return Scopes.split(scope);
    }

    @Test
    void theChallengesScopeComesFirst() throws Exception {
        as.prmScopes = List.of("a", "b");

        await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), header("scope=\"mcp:basic\""), null)));

        assertThat(requestedScopes(0)).containsExactly("mcp:basic");
    }

    @Test
    void elseEveryScopeTheResourceSupports() throws Exception {
        as.prmScopes = List.of("mcp:basic", "mcp:read", "mcp:write");

        await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), header(""), null)));

        assertThat(requestedScopes(0)).containsExactly("mcp:basic", "mcp:read", "mcp:write");
    }

    @Test
    void elseNoScopeParameter() throws Exception {
        await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), header(""), null)));

        assertThat(as.to("/authorize").get(0).query()).doesNotContainKey("scope");
    }

    @Test
    void insufficientScopeStepsUpToTheUnionOfHeldAndDemanded() throws Exception {
        HttpAuthorizer authorizer = fixture.authorizer("s");
        AuthAttempt first = await(authorizer.challenged(unauthorized(as.mcp(), header("scope=\"mcp:basic\""), null)));

        AuthAttempt second = await(authorizer.challenged(forbidden(as.mcp(),
                header("error=\"insufficient_scope\", scope=\"mcp:write\""), ((AuthAttempt.Retry) first).authorization())));

        assertThat(second).isEqualTo(new AuthAttempt.Retry("Bearer token-2"));
        assertThat(requestedScopes(1)).containsExactlyInAnyOrder("mcp:basic", "mcp:write");
        assertThat(authorizer.authorization()).isEqualTo("Bearer token-2");
    }

    @Test
    void aForbiddenThatIsNotAboutScopesIsRefusedWithoutANewAuthorization() throws Exception {
        AuthAttempt attempt = await(fixture.authorizer("s").challenged(forbidden(as.mcp(),
                "Bearer error=\"access_denied\"", null)));

        assertThat(attempt).isInstanceOf(AuthAttempt.Refused.class);
        assertThat(as.to("/authorize")).isEmpty();
    }

    @Test
    void stepUpForTheSameScopesIsBoundedEvenAcrossProcesses() throws Exception {
        String demand = header("error=\"insufficient_scope\", scope=\"mcp:admin\"");
        AuthAttempt attempt = await(fixture.authorizer("s").challenged(unauthorized(as.mcp(),
                header("scope=\"mcp:admin\""), null)));
        // a second process (a worker after the login) sees the stored attempt count
        OAuthFixture worker = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null, "open")),
                fixture.store, OAuthFixture.KEY, Duration.ofSeconds(10));
        try {
            HttpAuthorizer authorizer = worker.authorizer("s");
            for (int i = 0; i < 5 && attempt instanceof AuthAttempt.Retry retry; i++) {
                attempt = await(authorizer.challenged(forbidden(as.mcp(), demand, retry.authorization())));
            }
        } finally {
            worker.close();
        }

        assertThat(attempt).isInstanceOf(AuthAttempt.Refused.class);
        assertThat(((AuthAttempt.Refused) attempt).reason()).contains("server 's'").contains("insufficient scope")
                .contains("mcp:admin");
        assertThat(as.to("/authorize")).hasSize(HttpAuthorizer.MAX_CHALLENGES);
    }

    @Test
    void aStepUpAWorkerCannotDoIsAskedForByTheNextLogin() throws Exception {
        as.wwwAuthenticate = header("scope=\"mcp:basic\"");
        McpServerSpec spec = McpServerSpec.http("s", as.mcp(), Map.of());
        assertThat(fixture.authorizers.login(spec, QUIET)).isInstanceOf(LoginOutcome.LoggedIn.class);
        try (OAuthFixture worker = new OAuthFixture(Map.of("s", OAuthFixture.authorizationCode(null, null, null,
                null)), fixture.store, OAuthFixture.KEY, Duration.ofSeconds(10))) {
            worker.authorizers.status(); // reads the stored token

            AuthAttempt attempt = await(worker.authorizer("s").challenged(forbidden(as.mcp(),
                    header("error=\"insufficient_scope\", scope=\"mcp:write\""), "Bearer token-1")));

            assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 's' needs a login with scopes "
                    + "[mcp:basic mcp:write]: run bin/mcp-tasks auth login s"));
        }

        assertThat(fixture.authorizers.login(spec, QUIET)).isInstanceOf(LoginOutcome.LoggedIn.class);

        assertThat(requestedScopes(0)).containsExactly("mcp:basic");
        assertThat(requestedScopes(1)).containsExactlyInAnyOrder("mcp:basic", "mcp:write");
    }

    @Test
    void clientCredentialsStepUpAsksForTheScopesInTheTokenRequest() throws Exception {
        OAuthFixture machine = new OAuthFixture(Map.of("m", OAuthFixture.clientCredentials("client_secret_post")));
        try {
            HttpAuthorizer authorizer = machine.authorizer("m");
            AuthAttempt first = await(authorizer.challenged(unauthorized(as.mcp(), header("scope=\"read\""), null)));
            await(authorizer.challenged(forbidden(as.mcp(), header("error=\"insufficient_scope\", scope=\"write\""),
                    ((AuthAttempt.Retry) first).authorization())));

            assertThat(as.to("/token")).extracting(request -> request.form().get("scope"))
                    .containsExactly("read", "read write");
        } finally {
            machine.close();
        }
    }
}
