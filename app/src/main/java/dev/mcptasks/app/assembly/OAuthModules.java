package dev.mcptasks.app.assembly;

import com.google.inject.Module;
import dev.mcptasks.adapters.oauth.OAuthModule;
import dev.mcptasks.adapters.oauth.OAuthSettings;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.AuthConfig;
import dev.mcptasks.app.config.ServerConfig;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Chooses the OAuth module from the configuration: installed when any server has {@code auth}, with the key that
 * seals the stored tokens read from {@code MCP_TASKS_SECRET_KEY} (base64 of 32 bytes). Every worker and CLI of a
 * deployment shares the key, as they share the store: a token sealed by one is opened by the others.
 */
public final class OAuthModules {
    public static final String KEY_VARIABLE = "MCP_TASKS_SECRET_KEY";
    static final int KEY_BYTES = 32;
    private static final String HOW = "make one with 'openssl rand -base64 32' and give every worker and CLI of"
            + " this deployment the same value";

    private OAuthModules() {}

    /** The OAuth module for the servers with {@code auth}, or empty when none has it (no key is needed then). */
    public static Optional<Module> forServers(AppConfig config, Function<String, String> environment) {
        return forServers(config, environment, SecretRedactor.NONE);
    }

    /** @param secrets learns the tokens the OAuth module obtains or reads */
    public static Optional<Module> forServers(AppConfig config, Function<String, String> environment,
            SecretRedactor secrets) {
        Map<String, OAuthSettings> byServer = new LinkedHashMap<>();
        for (ServerConfig server : config.servers().values()) {
            if (server.hasAuth()) {
                byServer.put(server.name(), settings(server));
            }
        }
        if (byServer.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new OAuthModule(byServer, sealingKey(environment, String.join(", ", byServer.keySet())),
                secrets));
    }

    static OAuthSettings settings(ServerConfig server) {
        AuthConfig auth = server.auth();
        try {
            return new OAuthSettings(auth.grant().wireName(), auth.clientId(), auth.clientSecret(),
                    auth.tokenEndpointAuthMethod(), auth.privateKeyPem(), auth.signingAlgorithm(), auth.scopes(),
                    auth.clientMetadataUrl(), auth.authorizationServer(), auth.redirectPort(), auth.browser());
        } catch (IllegalArgumentException e) {
            // the configuration reader checks what the adapter does: reaching this is a gap between the two
            throw new StartupException("server '" + server.name() + "': " + e.getMessage(), e);
        }
    }

    /** The 32-byte key from the environment; its value is never part of a message. */
    static byte[] sealingKey(Function<String, String> environment, String servers) {
        String value = environment.apply(KEY_VARIABLE);
        if (value == null || value.isBlank()) {
            throw new StartupException(KEY_VARIABLE + " is not set: server(s) " + servers + " use OAuth, whose tokens"
                    + " are stored encrypted with it; " + HOW, null);
        }
        byte[] key;
        try {
            // openssl wraps nothing at 32 bytes, but a key pasted from elsewhere may carry white space
            key = Base64.getDecoder().decode(value.replaceAll("\\s+", ""));
        } catch (IllegalArgumentException e) {
            throw new StartupException(KEY_VARIABLE + " is not base64; " + HOW, null);
        }
        if (key.length != KEY_BYTES) {
            throw new StartupException(KEY_VARIABLE + " must be the base64 of " + KEY_BYTES + " bytes, it decodes to "
                    + key.length + "; " + HOW, null);
        }
        return key;
    }
}
