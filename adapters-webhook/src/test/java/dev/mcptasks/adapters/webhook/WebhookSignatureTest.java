package dev.mcptasks.adapters.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {
    /** The test vector the Standard Webhooks reference libraries publish. */
    private static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long TIMESTAMP = 1614265330L;
    private static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    private static final String EXPECTED = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    @Test
    void reproducesThePublishedTestVector() {
        assertThat(new WebhookSignature(WebhookSecret.parse(SECRET)).sign(ID, TIMESTAMP, BODY)).isEqualTo(EXPECTED);
    }

    @Test
    void theTestReceiversVerifierAcceptsThePublishedVectorAndRejectsATamperedBody() {
        StandardWebhooksVerifier verifier = new StandardWebhooksVerifier(SECRET, 300);

        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), EXPECTED, BODY, TIMESTAMP)).isTrue();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), "v1,bm9wZQ== " + EXPECTED, BODY, TIMESTAMP))
                .as("one of several signatures matches").isTrue();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), EXPECTED,
                "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8), TIMESTAMP)).isFalse();
        assertThat(verifier.verify(ID, Long.toString(TIMESTAMP), EXPECTED, BODY, TIMESTAMP + 301))
                .as("too old").isFalse();
    }

    @Test
    void aRawTextSecretSignsWithItsUtf8Bytes() {
        String raw = "a-raw-text-secret-of-32-bytes-xx";
        String whsec = "whsec_" + java.util.Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.UTF_8));

        assertThat(new WebhookSignature(WebhookSecret.parse(raw)).sign(ID, TIMESTAMP, BODY))
                .isEqualTo(new WebhookSignature(WebhookSecret.parse(whsec)).sign(ID, TIMESTAMP, BODY));
    }
}
