package dev.mcptasks.adapters.oauth;

import static dev.mcptasks.adapters.oauth.OAuthFixture.await;
import static dev.mcptasks.adapters.oauth.OAuthFixture.unauthorized;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.auth.AuthAttempt;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The discovery variants of the conformance suite (auth/metadata-*, auth/2025-03-26-*), request by request. */
class DiscoveryTest {
    private FakeOAuthServer as;
    private OAuthFixture fixture;

    @BeforeEach
    void start() throws Exception {
        as = new FakeOAuthServer();
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.clientCredentials("client_secret_basic")));
    }

    @AfterEach
    void stop() {
        fixture.close();
        as.close();
    }

    private AuthAttempt challenge(String header) throws Exception {
        return await(fixture.authorizer("s").challenged(unauthorized(as.mcp(), header, null)));
    }

    @Test
    void resourceMetadataFromTheChallengeAndRootServerMetadata() throws Exception {
        AuthAttempt attempt = challenge("Bearer error=\"invalid_token\", resource_metadata=\"" + as.prmUrl() + "\"");

        assertThat(attempt).isEqualTo(new AuthAttempt.Retry("Bearer token-1"));
        assertThat(as.paths()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-authorization-server", "/token");
        assertThat(as.to("/token").get(0).form()).containsEntry("resource", as.base() + "/mcp");
    }

    @Test
    void pathBasedResourceMetadataWithoutAHeaderAndOpenIdConfiguration() throws Exception {
        as.asMetadataPath = "/.well-known/openid-configuration";

        AuthAttempt attempt = challenge("Bearer error=\"invalid_token\"");

        assertThat(attempt).isInstanceOf(AuthAttempt.Retry.class);
        assertThat(as.paths()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/token");
    }

    @Test
    void rootResourceMetadataAndAnIssuerWithAPath() throws Exception {
        as.prmPath = "/.well-known/oauth-protected-resource";
        as.prmResource = null;
        as.asPrefix = "/tenant1";
        as.asMetadataPath = "/.well-known/oauth-authorization-server/tenant1";
        as.prmResource = as.base();

        AuthAttempt attempt = challenge(null);

        assertThat(attempt).isInstanceOf(AuthAttempt.Retry.class);
        assertThat(as.paths()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/tenant1",
                "/tenant1/token");
        assertThat(as.to("/tenant1/token").get(0).form()).containsEntry("resource", as.base());
    }

    @Test
    void customResourceMetadataUrlAndOpenIdConfigurationAfterTheIssuerPath() throws Exception {
        as.prmPath = "/custom/metadata/location.json";
        as.asPrefix = "/tenant1";
        as.asMetadataPath = "/tenant1/.well-known/openid-configuration";

        AuthAttempt attempt = challenge("Bearer resource_metadata=\"" + as.prmUrl() + "\"");

        assertThat(attempt).isInstanceOf(AuthAttempt.Retry.class);
        assertThat(as.paths()).containsExactly("/custom/metadata/location.json",
                "/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1",
                "/tenant1/.well-known/openid-configuration", "/tenant1/token");
    }

    @Test
    void without2025ResourceMetadataTheServerRootIsTheAuthorizationServer() throws Exception {
        as.prmPath = null;
        as.asPrefix = "/oauth";

        AuthAttempt attempt = challenge("Bearer error=\"invalid_token\"");

        assertThat(attempt).isInstanceOf(AuthAttempt.Retry.class);
        assertThat(as.paths()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/oauth/token");
    }

    @Test
    void withoutAnyMetadataTheDefaultEndpointsAtTheRootAreUsed() throws Exception {
        as.prmPath = null;
        as.asMetadataPath = null;

        AuthAttempt attempt = challenge(null);

        assertThat(attempt).isInstanceOf(AuthAttempt.Retry.class);
        assertThat(as.paths()).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration", "/token");
        assertThat(as.to("/token").get(0).form()).containsEntry("resource", as.base() + "/mcp");
    }

    @Test
    void resourceMetadataForAnotherResourceIsRefusedBeforeAnyTokenRequest() throws Exception {
        as.prmResource = "https://evil.example.com/mcp";

        AuthAttempt attempt = challenge("Bearer resource_metadata=\"" + as.prmUrl() + "\"");

        assertThat(attempt).isInstanceOf(AuthAttempt.Refused.class);
        assertThat(((AuthAttempt.Refused) attempt).reason()).contains("server 's'")
                .contains("https://evil.example.com/mcp");
        assertThat(as.paths()).doesNotContain("/token", "/authorize");
    }

    @Test
    void metadataNamingAnotherIssuerIsRefusedBeforeAnyTokenRequest() throws Exception {
        as.issuerClaim = "https://other.example";

        AuthAttempt attempt = challenge("Bearer resource_metadata=\"" + as.prmUrl() + "\"");

        assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 's': the authorization server metadata at "
                + as.base() + "/.well-known/oauth-authorization-server names issuer https://other.example, not "
                + as.issuer() + " (RFC 8414 section 3.3): refusing it"));
        assertThat(as.paths()).doesNotContain("/token");
    }

    @Test
    void theHostIsNotTheIssuerWithAPath() throws Exception {
        as.asPrefix = "/tenant1";
        as.asMetadataPath = "/.well-known/oauth-authorization-server/tenant1";
        as.issuerClaim = as.base(); // the host, not the issuer with its path

        AuthAttempt attempt = challenge(null);

        assertThat(((AuthAttempt.Refused) attempt).reason()).contains("names issuer " + as.base() + ", not "
                + as.issuer());
        assertThat(as.paths()).doesNotContain("/tenant1/token");
    }

    @Test
    void theLegacyFallbackTakesMetadataOnlyFromTheServersOwnOrigin() throws Exception {
        as.prmPath = null;
        as.issuerClaim = "https://other.example";

        AuthAttempt attempt = challenge(null);

        assertThat(((AuthAttempt.Refused) attempt).reason()).contains("names issuer https://other.example, which is "
                + "not at " + as.base());
        assertThat(as.paths()).doesNotContain("/token");
    }

    @Test
    void plainHttpResourceMetadataOutsideLoopbackIsRefusedUnfetched() throws Exception {
        AuthAttempt attempt = challenge("Bearer resource_metadata=\"http://mcp.example/prm?x=1\"");

        assertThat(attempt).isEqualTo(new AuthAttempt.Refused("server 's': refusing the protected resource metadata "
                + "url http://mcp.example/prm: plain http is allowed only on a loopback host"));
        assertThat(as.paths()).isEmpty();
    }

    @Test
    void plainHttpAuthorizationServerOrTokenEndpointOutsideLoopbackIsRefused() throws Exception {
        as.prmServer = "http://as.example";
        assertThat(challenge(null)).isEqualTo(new AuthAttempt.Refused("server 's': refusing the authorization "
                + "server http://as.example: plain http is allowed only on a loopback host"));

        as.prmServer = null;
        as.tokenEndpoint = "http://as.example/token";
        fixture.close();
        fixture = new OAuthFixture(Map.of("s", OAuthFixture.clientCredentials("client_secret_basic")));
        assertThat(challenge(null)).isEqualTo(new AuthAttempt.Refused("server 's': refusing the token_endpoint "
                + "http://as.example/token: plain http is allowed only on a loopback host"));
        assertThat(as.paths()).doesNotContain("/token");
    }

    @Test
    void onlyLiteralLoopbackHostsMayUsePlainHttp() {
        assertThat(Endpoints.loopback("127.0.0.1")).isTrue();
        assertThat(Endpoints.loopback("127.12.0.3")).isTrue();
        assertThat(Endpoints.loopback("[::1]")).isTrue();
        assertThat(Endpoints.loopback("LOCALHOST")).isTrue();
        assertThat(Endpoints.loopback("127.0.0.1.evil.example")).isFalse();
        assertThat(Endpoints.loopback("localhost.evil.example")).isFalse();
        assertThat(Endpoints.loopback("10.0.0.1")).isFalse();
        assertThat(Endpoints.requireSecure(URI.create("https://as.example/t"), "x")).hasToString(
                "https://as.example/t");
        assertThat(Endpoints.sameIssuer("https://as.example/", URI.create("https://as.example"))).isTrue();
        assertThat(Endpoints.sameIssuer("https://as.example/t/", URI.create("https://as.example/t"))).isFalse();
        assertThat(Endpoints.sameIssuer("http://as.example", URI.create("https://as.example/"))).isFalse();
    }

    @Test
    void serverMetadataUrlsFollowTheSpecOrder() {
        assertThat(Discovery.serverMetadataUrls(URI.create("https://as.example/"))).containsExactly(
                URI.create("https://as.example/.well-known/oauth-authorization-server"),
                URI.create("https://as.example/.well-known/openid-configuration"));
        assertThat(Discovery.serverMetadataUrls(URI.create("https://as.example/t/1/"))).containsExactly(
                URI.create("https://as.example/.well-known/oauth-authorization-server/t/1"),
                URI.create("https://as.example/.well-known/openid-configuration/t/1"),
                URI.create("https://as.example/t/1/.well-known/openid-configuration"));
    }

    @Test
    void resourceMetadataMaySpeakForAPathBelowIt() {
        URI mcp = URI.create("https://mcp.example/api/mcp");
        assertThat(Discovery.allowed(mcp, URI.create("https://mcp.example/api"))).isTrue();
        assertThat(Discovery.allowed(mcp, URI.create("https://MCP.example/api/mcp/"))).isTrue();
        assertThat(Discovery.allowed(mcp, URI.create("https://mcp.example/ap"))).isFalse();
        assertThat(Discovery.allowed(mcp, URI.create("http://mcp.example/api"))).isFalse();
        assertThat(Discovery.allowed(mcp, URI.create("https://mcp.example:8443/api"))).isFalse();
        assertThat(List.of(Discovery.canonical(URI.create("HTTPS://MCP.Example/Mcp#frag")))).containsExactly(
                URI.create("https://mcp.example/Mcp"));
    }
}
