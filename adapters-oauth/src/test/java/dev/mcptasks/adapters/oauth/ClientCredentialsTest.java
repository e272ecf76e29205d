package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.ports.auth.AuthAttempt;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client_credentials grant with each token endpoint authentication method. */
class ClientCredentialsTest {
    private FakeOAuthServer as;
    private OAuthFixture fixture;

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
        as.close();
    }

    private FakeOAuthServer.Request tokenRequest(OAuthSettings settings) throws Exception {
        fixture = new OAuthFixture(Map.of("s", settings));
        AuthAttempt attempt = await(fixture.authorizer("s").challenged(unauthorized(as.mcp(),
                "Bearer resource_metadata=\"" + as.prmUrl() + "\"", null)));
        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
        assertThat(as.to("/token")).hasSize(1);
        FakeOAuthServer.Request request = as.to("/token").get(0);
        assertThat(request.form()).containsEntry("grant_type", "client_credentials")
                .containsEntry("resource", as.base() + "/mcp");
        return request;
    }

    @Test
    void clientSecretBasicSendsTheFormEncodedIdAndSecret() throws Exception {
        FakeOAuthServer.Request request = tokenRequest(OAuthFixture.clientCredentials("client_secret_basic"));

        assertThat(request.authorization()).startsWith("Basic ");
        String decoded = new String(Base64.getDecoder().decode(request.authorization().substring(6)),
                StandardCharsets.UTF_8);
        // RFC 6749 2.3.1: both are form-urlencoded before joining, so a ':' in the secret survives
        assertThat(decoded).isEqualTo("cc-client:cc+secret%3A1");
        assertThat(request.form()).doesNotContainKeys("client_secret", "client_assertion");
    }

    @Test
    void theObtainedTokenIsMadeKnownAsASecret() throws Exception {
        tokenRequest(OAuthFixture.clientCredentials("client_secret_basic"));

        assertThat(fixture.remembered).as("redacted from any upstream text from now on").contains("token-1");
    }

    @Test
    void clientSecretPostSendsThemInTheBody() throws Exception {
        FakeOAuthServer.Request request = tokenRequest(OAuthFixture.clientCredentials("client_secret_post"));

        assertThat(request.authorization()).isNull();
        assertThat(request.form()).containsEntry("client_id", "cc-client").containsEntry("client_secret", "cc secret:1");
    }

    @Test
    void withoutAConfiguredMethodTheServersListDecides() throws Exception {
        as.authMethods = List.of("client_secret_post");

        FakeOAuthServer.Request request = tokenRequest(OAuthFixture.clientCredentials(null));

        assertThat(request.authorization()).isNull();
        assertThat(request.form()).containsEntry("client_secret", "cc secret:1");
    }

    @Test
    void privateKeyJwtWithEs256SignsAJoseSignatureTheIssuerAccepts() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = generator.generateKeyPair();

        FakeOAuthServer.Request request = tokenRequest(jwtSettings(keys, "ES256"));

        JsonNode claims = verify(request, keys.getPublic(), "SHA256withECDSAinP1363Format", "ES256", 64);
        assertThat(claims.path("aud").asText()).isEqualTo(as.issuer());
    }

    @Test
    void privateKeyJwtWithRs256() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair keys = generator.generateKeyPair();

        FakeOAuthServer.Request request = tokenRequest(jwtSettings(keys, null));

        verify(request, keys.getPublic(), "SHA256withRSA", "RS256", 256);
    }

    private static OAuthSettings jwtSettings(KeyPair keys, String algorithm) {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return new OAuthSettings("client_credentials", "jwt-client", null, "private_key_jwt", pem, algorithm, null,
                null, null, 0, null);
    }

    /** Checks the assertion's form fields, header and signature; returns its claims. */
    private JsonNode verify(FakeOAuthServer.Request request, PublicKey key, String jca, String alg, int signatureBytes)
            throws Exception {
        assertThat(request.form()).containsEntry("client_assertion_type",
                "urn:ietf:params:oauth:client-assertion-type:jwt-bearer").containsEntry("client_id", "jwt-client");
        assertThat(request.authorization()).isNull();
        String[] parts = request.form().get("client_assertion").split("\\.");
        assertThat(parts).hasSize(3);
        Base64.Decoder b64 = Base64.getUrlDecoder();
        JsonNode header = OAuthHttp.JSON.readTree(b64.decode(parts[0]));
        JsonNode claims = OAuthHttp.JSON.readTree(b64.decode(parts[1]));
        byte[] signature = b64.decode(parts[2]);
        assertThat(header.path("alg").asText()).isEqualTo(alg);
        assertThat(signature).hasSize(signatureBytes);
        Signature verifier = Signature.getInstance(jca);
        verifier.initVerify(key);
        verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertThat(verifier.verify(signature)).isTrue();
        assertThat(claims.path("iss").asText()).isEqualTo("jwt-client");
        assertThat(claims.path("sub").asText()).isEqualTo("jwt-client");
        assertThat(claims.path("jti").asText()).isNotBlank();
        long now = fixture.clock.now().getEpochSecond();
        assertThat(claims.path("exp").asLong()).isGreaterThan(now).isLessThanOrEqualTo(now + 300);
        return claims;
    }
}
