package dev.mcptasks.adapters.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class TokenSealTest {
    private static final byte[] KEY = key(1);
    private static final String RESOURCE = "https://mcp.example/mcp";
    private final TokenSeal seal = new TokenSeal(KEY);

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sealedBytesOpenToTheSameAndHideThem() {
        byte[] plain = bytes("{\"access_token\":\"secret-token\"}");

        byte[] sealed = seal.seal(plain, "oauth:s", RESOURCE);

        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("secret-token");
        TokenSeal.Opened opened = seal.open(sealed, "oauth:s");
        assertThat(opened.plain()).isEqualTo(plain);
        assertThat(opened.resource()).isEqualTo(RESOURCE);
        assertThat(opened.legacy()).isFalse();
        assertThat(seal.seal(plain, "oauth:s", RESOURCE)).isNotEqualTo(sealed); // a fresh nonce each time
    }

    @Test
    void aValueCopiedToAnotherCredentialKeyDoesNotOpen() {
        byte[] sealed = seal.seal(bytes("x"), "oauth:a", RESOURCE);

        assertThatThrownBy(() -> seal.open(sealed, "oauth:b")).isInstanceOf(TokenSeal.SealException.class)
                .hasMessage("the stored credential does not open with MCP_TASKS_SECRET_KEY: it was sealed for another "
                        + "credential than oauth:b (copied from another server?), or it is corrupt");
    }

    @Test
    void aRewrittenResourceDoesNotOpen() {
        byte[] sealed = seal.seal(bytes("x"), "oauth:s", RESOURCE);
        String text = new String(sealed, StandardCharsets.ISO_8859_1).replace("mcp.example", "evl.example");
        byte[] forged = text.getBytes(StandardCharsets.ISO_8859_1);

        assertThat(forged).isNotEqualTo(sealed);
        assertThatThrownBy(() -> seal.open(forged, "oauth:s")).isInstanceOf(TokenSeal.SealException.class)
                .hasMessageContaining("sealed for another credential");
    }

    @Test
    void theFirstFormatStillOpensMarkedLegacy() throws Exception {
        byte[] plain = bytes("{\"access_token\":\"old\"}");

        TokenSeal.Opened opened = seal.open(legacySeal(KEY, plain), "oauth:whatever");

        assertThat(opened.plain()).isEqualTo(plain);
        assertThat(opened.legacy()).isTrue();
        assertThat(opened.resource()).isNull();
    }

    @Test
    void anotherKeyIsNamedAsTheCause() {
        byte[] sealed = new TokenSeal(key(2)).seal(bytes("x"), "oauth:s", RESOURCE);

        assertThatThrownBy(() -> seal.open(sealed, "oauth:s")).isInstanceOf(TokenSeal.SealException.class)
                .hasMessage("the stored credential was sealed with another key than MCP_TASKS_SECRET_KEY");
    }

    @Test
    void aTamperedValueDoesNotOpen() throws Exception {
        byte[] sealed = seal.seal(bytes("x"), "oauth:s", RESOURCE);
        sealed[sealed.length - 1] ^= 1;
        byte[] legacy = legacySeal(KEY, bytes("x"));
        legacy[legacy.length - 1] ^= 1;

        assertThatThrownBy(() -> seal.open(sealed, "oauth:s")).isInstanceOf(TokenSeal.SealException.class)
                .hasMessageContaining("or it is corrupt");
        assertThatThrownBy(() -> seal.open(legacy, "oauth:s")).isInstanceOf(TokenSeal.SealException.class)
                .hasMessageContaining("wrong key or corrupt");
        assertThatThrownBy(() -> seal.open(new byte[5], "oauth:s")).hasMessageContaining("truncated");
        assertThatThrownBy(() -> seal.open(Arrays.copyOf(sealed, 8), "oauth:s")).hasMessageContaining("truncated");
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
                    + "credential was sealed with another key than MCP_TASKS_SECRET_KEY; run bin/mcp-tasks auth "
                    + "login s"));
        }
    }

    /** The first format, as the previous release wrote it: {@code [key id][nonce][ciphertext]}, the key id as AAD. */
    static byte[] legacySeal(byte[] key, byte[] plain) throws Exception {
        byte keyId = java.security.MessageDigest.getInstance("SHA-256").digest(key)[0];
        byte[] nonce = new byte[12];
        new java.security.SecureRandom().nextBytes(nonce);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
        cipher.updateAAD(new byte[] {keyId});
        byte[] sealed = cipher.doFinal(plain);
        return ByteBuffer.allocate(1 + 12 + sealed.length).put(keyId).put(nonce).put(sealed).array();
    }
}
