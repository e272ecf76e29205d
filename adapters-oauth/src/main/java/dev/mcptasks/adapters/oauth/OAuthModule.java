package dev.mcptasks.adapters.oauth;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.util.Map;

/**
 * OAuth for the HTTP MCP servers named in {@code byServer}: binds {@link HttpAuthorizers} (the transports' optional
 * binding) and {@link OAuthLogins}. Needs a {@link CredentialStore} and a {@link Clock} bound elsewhere.
 */
public final class OAuthModule extends AbstractModule {
    private final Map<String, OAuthSettings> byServer;
    private final byte[] sealingKey;
    private final SecretRedactor secrets;

    /**
     * @param byServer the OAuth settings per server name
     * @param sealingKey 32 bytes (AES-256-GCM) that seal the stored tokens; the app reads it base64 from
     *     {@code MCP_TASKS_SECRET_KEY}
     */
    public OAuthModule(Map<String, OAuthSettings> byServer, byte[] sealingKey) {
        this(byServer, sealingKey, SecretRedactor.NONE);
    }

    /** @param secrets learns every token obtained or read, so they are redacted from upstream text */
    public OAuthModule(Map<String, OAuthSettings> byServer, byte[] sealingKey, SecretRedactor secrets) {
        this.byServer = Map.copyOf(byServer);
        this.sealingKey = TokenSeal.checkKey(sealingKey).clone();
        this.secrets = java.util.Objects.requireNonNull(secrets, "secrets");
    }

    @Override
    protected void configure() {
        OptionalBinder.newOptionalBinder(binder(), HttpAuthorizers.class).setBinding().to(OAuthAuthorizers.class);
        bind(OAuthLogins.class).to(OAuthAuthorizers.class);
    }

    @Provides
    @Singleton
    OAuthAuthorizers authorizers(CredentialStore store, Clock clock) {
        return new OAuthAuthorizers(byServer, new TokenSeal(sealingKey), store, clock, secrets);
    }
}
