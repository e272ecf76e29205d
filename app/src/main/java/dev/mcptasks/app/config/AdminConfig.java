package dev.mcptasks.app.config;

import java.util.Set;

/**
 * The {@code admin} object: the listener of {@code serve} and {@code gateway} for {@code /metrics}, {@code /healthz}
 * and {@code /readyz}. Without the object no admin listener runs.
 *
 * @param host bind address, loopback by default
 * @param port bind port (0: any free port)
 * @param token the bearer token every request must carry, or null; required when {@code host} is not loopback
 */
public record AdminConfig(String host, int port, String token) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9465;
    static final Set<String> KEYS = Set.of("host", "port", "token");

    @Override
    public String toString() {
        return "AdminConfig[host=" + host + ", port=" + port + ", token=" + (token == null ? null : "(redacted)")
                + "]";
    }

    /** Reads {@code admin}; a non-loopback host without a token is refused, naming the key. */
    static AdminConfig read(JsonSection admin, EnvSubstitution substitution) {
        admin.requireOnly(KEYS);
        String host = admin.has("host") ? admin.requiredString("host").trim() : DEFAULT_HOST;
        if (host.isEmpty()) {
            throw new ConfigException(admin.path("host"), admin.path("host") + " must not be empty");
        }
        int port = admin.intIn("port", DEFAULT_PORT, 0, 65_535);
        String token = null;
        if (admin.has("token")) {
            token = substitution.resolve(admin.path("token"), admin.requiredString("token"));
            if (token.length() < GatewayConfigReader.MIN_TOKEN_LENGTH
                    || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
                throw new ConfigException(admin.path("token"), admin.path("token") + " must be at least "
                        + GatewayConfigReader.MIN_TOKEN_LENGTH + " printable ASCII characters without spaces"
                        + " (e.g. openssl rand -base64 32)");
            }
        }
        if (token == null && !GatewayConfig.isLoopback(host)) {
            throw new ConfigException(admin.path("token"), admin.path("host") + " is '" + host
                    + "', not a loopback address: configure " + admin.path("token")
                    + " to serve the admin listener beyond this machine");
        }
        return new AdminConfig(host, port, token);
    }
}
