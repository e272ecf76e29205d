package dev.mcptasks.adapters.oauth;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.testkit.ManualClock;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import com.google.inject.Key;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.OptionalBinder;
import org.junit.jupiter.api.Test;

class OAuthModuleTest {
    @Test
    void bindsTheTransportsOptionalAuthorizersAndTheLogins() {
        Injector injector = Guice.createInjector(new AbstractModule() {
            @Override
            protected void configure() {
                // what a transport module declares
                OptionalBinder.newOptionalBinder(binder(), HttpAuthorizers.class);
                bind(CredentialStore.class).toInstance(new MemoryCredentialStore());
                bind(Clock.class).toInstance(new ManualClock());
            }
        }, new OAuthModule(Map.of("secured", OAuthSettings.clientCredentials("c", "s")), OAuthFixture.KEY));

        HttpAuthorizers authorizers = injector.getInstance(Key.get(new TypeLiteral<Optional<HttpAuthorizers>>() {
        })).orElseThrow();
        URI url = URI.create("http://127.0.0.1:1/mcp");
        HttpAuthorizer secured = authorizers.forServer(McpServerSpec.http("secured", url, Map.of()));

        assertThat(secured).isNotSameAs(HttpAuthorizer.NONE)
                .isSameAs(authorizers.forServer(McpServerSpec.http("secured", url, Map.of())));
        assertThat(authorizers.forServer(McpServerSpec.http("open", url, Map.of()))).isSameAs(HttpAuthorizer.NONE);
        assertThat(injector.getInstance(OAuthLogins.class)).isSameAs(authorizers);
        assertThat(injector.getInstance(OAuthLogins.class).status()).containsExactly(
                new CredentialStatus("secured", false, null, false, java.util.List.of()));
    }
}
