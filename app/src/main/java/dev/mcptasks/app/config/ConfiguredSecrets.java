package dev.mcptasks.app.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The secret values a configuration holds: every header value sent to a server or the webhook (and the credential
 * after an {@code Authorization} scheme), the values of secret-named environment variables given to stdio servers
 * ({@link #SECRET_NAME}: {@code NODE_ENV=production} is not a secret, and masking every {@code production} would
 * damage results), OAuth client secrets, the
 * gateway's principal tokens and the database password. They are removed from any upstream text before it is stored,
 * logged or answered.
 */
public final class ConfiguredSecrets {
    /** An environment variable whose name says it holds a credential. */
    static final Pattern SECRET_NAME = Pattern.compile("(?i)KEY|TOKEN|SECRET|PASS|AUTH|CREDENTIAL|PRIVATE|COOKIE");
    private static final List<String> SCHEMES = List.of("Bearer ", "Basic ", "Token ", "ApiKey ");

    private ConfiguredSecrets() {}

    public static List<String> of(AppConfig config) {
        List<String> secrets = new ArrayList<>();
        for (ServerConfig server : config.servers().values()) {
            addHeaders(secrets, server.headers());
            server.env().forEach((name, value) -> {
                if (SECRET_NAME.matcher(name).find()) {
                    secrets.add(value);
                }
            });
            if (server.auth() != null && server.auth().clientSecret() != null) {
                secrets.add(server.auth().clientSecret());
            }
        }
        if (config.webhook() != null) {
            addHeaders(secrets, config.webhook().headers());
        }
        secrets.addAll(config.gateway().tokensByPrincipal().values());
        config.adminConfig().map(AdminConfig::token).ifPresent(secrets::add);
        config.adminConfig().ifPresent(admin -> admin.users().forEach(user -> secrets.add(user.token())));
        if (config.database().password() != null) {
            secrets.add(config.database().password());
        }
        secrets.addAll(queryPasswords(config.database().url()));
        return secrets;
    }

    /** The values of {@code password=} (and {@code sslpassword=}) parameters of a JDBC url. */
    static List<String> queryPasswords(String url) {
        List<String> found = new ArrayList<>();
        int query = url.indexOf('?');
        if (query < 0) {
            return found;
        }
        for (String parameter : url.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String name = equals < 0 ? parameter : parameter.substring(0, equals);
            if (equals > 0 && (name.equalsIgnoreCase("password") || name.equalsIgnoreCase("sslpassword"))) {
                found.add(parameter.substring(equals + 1));
            }
        }
        return found;
    }

    private static void addHeaders(List<String> secrets, Map<String, String> headers) {
        for (String value : headers.values()) {
            secrets.add(value);
            for (String scheme : SCHEMES) {
                if (value.regionMatches(true, 0, scheme, 0, scheme.length())) {
                    secrets.add(value.substring(scheme.length()).strip());
                }
            }
        }
    }
}
