package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.auth.FakeAuthorizer;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The authorization side every HTTP transport shares: which answers are challenges, which header a request carries,
 * and how a challenge is answered (a retry header, or {@code AUTH_REQUIRED} once refused or out of answers).
 */
class HttpAuthTest {
    private static final URI RESOURCE = URI.create("https://example.org/mcp");
    private static final String CHALLENGE = "Bearer resource_metadata=\"https://example.org/.well-known/"
            + "oauth-protected-resource/mcp\"";
    private static final String STEP_UP = "Bearer error=\"insufficient_scope\", scope=\"mcp:basic mcp:write\"";

    private final List<String> resent = new ArrayList<>();
    private final List<McpTransportException> failed = new ArrayList<>();

    @Test
    void challengesAreRecognisedOnlyFor401AndInsufficientScope() {
        assertThat(HttpAuth.isChallenge(401, null)).isTrue();
        assertThat(HttpAuth.isChallenge(403, STEP_UP)).isTrue();
        assertThat(HttpAuth.isChallenge(403, "Bearer realm=\"x\", error=insufficient_scope")).isTrue();
        assertThat(HttpAuth.isChallenge(403, "Bearer error=\"invalid_token\"")).isFalse();
        assertThat(HttpAuth.isChallenge(403, "Bearer my_error=\"insufficient_scope\"")).isFalse();
        assertThat(HttpAuth.isChallenge(403, null)).isFalse();
        assertThat(HttpAuth.isChallenge(400, CHALLENGE)).isFalse();
        assertThat(HttpAuth.isChallenge(404, CHALLENGE)).isFalse();
    }

    @Test
    void theAuthorizersHeaderReplacesAConfiguredOneAndARetryHeaderWins() {
        HttpHeaders configured = new DefaultHttpHeaders().set("Authorization", "Bearer configured");
        assertThat(new HttpAuth("s", RESOURCE, new FakeAuthorizer(null)).apply(configured, null))
                .as("no authorizer header: the configured one stays").isEqualTo("Bearer configured");
        assertThat(new HttpAuth("s", RESOURCE, new FakeAuthorizer("Bearer t0")).apply(configured, null))
                .isEqualTo("Bearer t0");
        assertThat(new HttpAuth("s", RESOURCE, new FakeAuthorizer("Bearer t0")).apply(configured, "Bearer t9"))
                .isEqualTo("Bearer t9");
        assertThat(new HttpAuth("s", RESOURCE, null).apply(new DefaultHttpHeaders(), null)).isNull();
    }

    @Test
    void anAuthorizerThatThrowsSendsTheRequestWithoutACredential() {
        HttpAuthorizer throwing = new HttpAuthorizer() {
            @Override
            public String authorization() {
                throw new IllegalStateException("store down");
            }

            @Override
            public CompletableFuture<AuthAttempt> challenged(AuthChallenge challenge) {
                return CompletableFuture.completedFuture(null);
            }
        };

        assertThat(new HttpAuth("s", RESOURCE, throwing).apply(new DefaultHttpHeaders(), null)).isNull();
    }

    @Test
    void aChallengeIsAnsweredWithTheAuthorizersNewHeader() {
        FakeAuthorizer authorizer = new FakeAuthorizer("Bearer t0");

        new HttpAuth("s", RESOURCE, authorizer).answer(0, 403, STEP_UP, "Bearer t0", resent::add, failed::add);

        assertThat(resent).containsExactly("Bearer t1");
        assertThat(failed).isEmpty();
        assertThat(authorizer.seen()).containsExactly(new AuthChallenge(RESOURCE, 403, STEP_UP, "Bearer t0"));
    }

    @Test
    void aRequestOutOfAnswersFailsAuthRequiredWithoutAskingTheAuthorizer() {
        FakeAuthorizer authorizer = new FakeAuthorizer(null);

        new HttpAuth("s", RESOURCE, authorizer).answer(HttpAuthorizer.MAX_CHALLENGES, 401, CHALLENGE, "Bearer t3",
                resent::add, failed::add);

        assertThat(resent).isEmpty();
        assertThat(failed).singleElement().satisfies(failure -> {
            assertThat(failure.kind()).isEqualTo(Kind.AUTH_REQUIRED);
            assertThat(failure.sent()).isFalse();
            assertThat(failure).hasMessageContaining("'s'").hasMessageContaining("401")
                    .hasMessageContaining("giving up");
        });
        assertThat(authorizer.challenges).isEmpty();
    }

    @Test
    void aRefusalOrAFailedAuthorizerFailsAuthRequiredWithWhy() {
        new HttpAuth("s", RESOURCE, new FakeAuthorizer(null).refusing("no client id")).answer(0, 401, CHALLENGE, null,
                resent::add, failed::add);
        FakeAuthorizer broken = new FakeAuthorizer(null);
        broken.answers = challenge -> CompletableFuture.failedFuture(new IllegalStateException("discovery down"));
        new HttpAuth("s", RESOURCE, broken).answer(0, 401, CHALLENGE, null, resent::add, failed::add);

        assertThat(resent).isEmpty();
        assertThat(failed).extracting(McpTransportException::kind).containsOnly(Kind.AUTH_REQUIRED);
        assertThat(failed.get(0)).hasMessageContaining("no client id");
        assertThat(failed.get(1)).hasMessageContaining("discovery down");
    }
}
