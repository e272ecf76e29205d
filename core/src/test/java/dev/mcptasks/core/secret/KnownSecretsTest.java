package dev.mcptasks.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Secrets are removed as written, JSON-escaped and URL-encoded; values too short to be credentials are ignored. */
class KnownSecretsTest {
    private final KnownSecrets secrets = new KnownSecrets();

    @Test
    void aSecretIsRemovedInEveryFormItTravelsIn() {
        secrets.remember("tok/en\"with+specials");

        assertThat(secrets.redact("header: Bearer tok/en\"with+specials, end")).isEqualTo("header: Bearer [redacted], end");
        assertThat(secrets.redact("{\"echo\":\"tok/en\\\"with+specials\"}")).isEqualTo("{\"echo\":\"[redacted]\"}");
        assertThat(secrets.redact("?key=tok%2Fen%22with%2Bspecials&x=1")).isEqualTo("?key=[redacted]&x=1");
        assertThat(secrets.redact(null)).isNull();
    }

    @Test
    void theLongerOfTwoOverlappingSecretsIsRemovedWhole() {
        secrets.remember("abcdefgh");
        secrets.remember("abcdefgh-longer-secret");

        assertThat(secrets.redact("x abcdefgh-longer-secret y abcdefgh")).isEqualTo("x [redacted] y [redacted]");
    }

    @Test
    void aValueTooShortToBeACredentialIsNotRedacted() {
        secrets.remember("prod");
        secrets.remember(null);

        assertThat(secrets.redact("production is up")).isEqualTo("production is up");
    }
}
