package dev.mcptasks.adapters.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class OAuthSettingsTest {
    private static OAuthSettings settings(String grant, String clientId, String secret, String method, String pem,
            String algorithm, int port) {
        return new OAuthSettings(grant, clientId, secret, method, pem, algorithm, null, null, null, port, null);
    }

    @Test
    void eachInvalidFieldIsNamed() {
        assertThatThrownBy(() -> settings("password", "c", "s", null, null, null, 0))
                .hasMessage("oauth grant must be client_credentials or authorization_code, was password");
        assertThatThrownBy(() -> settings("client_credentials", null, "s", null, null, null, 0))
                .hasMessage("oauth clientId is required for the client_credentials grant");
        assertThatThrownBy(() -> settings("client_credentials", "c", null, null, null, null, 0))
                .hasMessage("oauth clientSecret or privateKeyPem is required for the client_credentials grant");
        assertThatThrownBy(() -> settings("client_credentials", "c", "s", "tls_client_auth", null, null, 0))
                .hasMessageStartingWith("oauth tokenEndpointAuthMethod must be one of");
        assertThatThrownBy(() -> settings("client_credentials", "c", "s", "private_key_jwt", null, null, 0))
                .hasMessage("oauth privateKeyPem is required for private_key_jwt");
        assertThatThrownBy(() -> settings("client_credentials", "c", "s", null, null, "HS256", 0))
                .hasMessage("oauth signingAlgorithm must be ES256 or RS256, was HS256");
        assertThatThrownBy(() -> settings("authorization_code", null, null, null, null, null, 70000))
                .hasMessage("oauth redirectPort must be 0..65535, was 70000");
        assertThatThrownBy(() -> new OAuthSettings("authorization_code", null, null, null, null, null, null,
                URI.create("ftp://x/y"), null, 0, null)).hasMessageStartingWith("oauth clientMetadataUrl");
    }

    @Test
    void toStringHidesTheSecrets() {
        OAuthSettings settings = new OAuthSettings("client_credentials", "c", "hunter2", null,
                "-----BEGIN PRIVATE KEY-----abc", null, List.of("a"), null, null, 0, null);

        assertThat(settings.toString()).doesNotContain("hunter2").doesNotContain("abc").contains("(redacted)");
        assertThat(settings.scopes()).containsExactly("a");
        assertThat(OAuthSettings.authorizationCode(null).scopes()).isEmpty();
    }

    @Test
    void aPemThatIsNotPkcs8IsNamed() {
        assertThatThrownBy(() -> new ClientAssertion("-----BEGIN EC PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----",
                null)).hasMessageContaining("PKCS#8").hasMessageContaining("openssl pkcs8 -topk8");
    }
}
