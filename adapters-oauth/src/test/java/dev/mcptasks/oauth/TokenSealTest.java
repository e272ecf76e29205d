package dev.mcptasks.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TokenSealTest {
    private static final byte[] KEY = key(1);
    private final TokenSeal seal = new TokenSeal(KEY);

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }

    @Test
    void sealedBytesOpenToTheSameAndHideThem() {
        byte[] plain = "{\"access_token\":\"secret-token\"}".getBytes(StandardCharsets.UTF_8);

        byte[] sealed = seal.seal(plain);

        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("secret-token");
        assertThat(seal.open(sealed)).isEqualTo(plain);
        assertThat(seal.seal(plain)).isNotEqualTo(sealed); // a fresh nonce each time
    }

    @Test
    void anotherKeyIsNamedAsTheCause() {
        byte[] sealed = new TokenSeal(key(2)).seal("x".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> seal.open(sealed)).isInstanceOf(TokenSeal.SealException.class)
                .hasMessageContaining("MCP_TASKS_SECRET_KEY");
    }

    @Test
    void aTamperedValueDoesNotOpen() {
        byte[] sealed = seal.seal("x".getBytes(StandardCharsets.UTF_8));
        sealed[sealed.length - 1] ^= 1;

        assertThatThrownBy(() -> seal.open(sealed)).isInstanceOf(TokenSeal.SealException.class)
                .hasMessageContaining("wrong key or corrupt");
        assertThatThrownBy(() -> seal.open(new byte[5])).hasMessageContaining("truncated");
    }

    @Test
    void theKeyMustBe32Bytes() {
        assertThatThrownBy(() -> new TokenSeal(new byte[16])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the OAuth sealing key (MCP_TASKS_SECRET_KEY, base64) must be 32 bytes, was 16 bytes");
        assertThatThrownBy(() -> new OAuthModule(java.util.Map.of(), null))
                .hasMessageContaining("was missing");
    }

    @Test
    void aWorkerWithAnotherKeyRefusesWithTheCause() throws Exception {
        MemoryCredentialStore store = new MemoryCredentialStore();
        try (FakeOAuthServer as = new FakeOAuthServer();
                OAuthFixture first = new OAuthFixture(java.util.Map.of("s", OAuthFixture.clientCredentials(null)),
                        store, KEY, java.time.Duration.ofSeconds(5));
                OAuthFixture second = new OAuthFixture(java.util.Map.of("s", OAuthFixture.clientCredentials(null)),
                        store, key(3), java.time.Duration.ofSeconds(5))) {
            OAuthFixture.await(first.authorizer("s").challenged(OAuthFixture.unauthorized(as.mcp(), null, null)));

            var attempt = OAuthFixture.await(second.authorizer("s").challenged(
                    OAuthFixture.unauthorized(as.mcp(), null, null)));

            assertThat(attempt).isEqualTo(new dev.mcptasks.ports.auth.AuthAttempt.Refused("server 's': the stored "
                    + "credential was sealed with another key than MCP_TASKS_SECRET_KEY"));
        }
    }
}
