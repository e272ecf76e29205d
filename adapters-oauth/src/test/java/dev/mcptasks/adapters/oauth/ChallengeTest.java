package dev.mcptasks.adapters.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChallengeTest {
    @Test
    void readsTheBearerParameters() {
        Challenge challenge = Challenge.parse("Bearer error=\"insufficient_scope\", scope=\"a b  c\", "
                + "resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource/mcp\", "
                + "error_description=\"Scope upgrade, \\\"never\\\"\"");

        assertThat(challenge).isEqualTo(new Challenge(
                "https://mcp.example/.well-known/oauth-protected-resource/mcp", List.of("a", "b", "c"),
                "insufficient_scope"));
        assertThat(challenge.insufficientScope()).isTrue();
    }

    @Test
    void picksTheBearerChallengeAmongSeveral() {
        Challenge challenge = Challenge.parse("Basic realm=\"x\", scope=\"wrong\", Bearer realm=\"y\", "
                + "scope=mcp:basic, DPoP algs=\"ES256\"");

        assertThat(challenge.scopes()).containsExactly("mcp:basic");
        assertThat(challenge.resourceMetadata()).isNull();
    }

    @Test
    void anythingElseIsEmpty() {
        assertThat(Challenge.parse(null)).isEqualTo(Challenge.EMPTY);
        assertThat(Challenge.parse("")).isEqualTo(Challenge.EMPTY);
        assertThat(Challenge.parse("Basic realm=\"x\"")).isEqualTo(Challenge.EMPTY);
        assertThat(Challenge.parse("Bearer")).isEqualTo(Challenge.EMPTY);
        assertThat(Challenge.parse("bearer scope=\"unterminated")).isEqualTo(
                new Challenge(null, List.of("unterminated"), null));
    }
}
