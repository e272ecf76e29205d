package dev.mcptasks.admin;

import java.util.Objects;

/**
 * Where the admin listener binds and the bearer token it requires. Beyond loopback a token is mandatory: the
 * listener serves the metrics (principals, servers, tools) and, later, actions.
 *
 * @param host bind address (default 127.0.0.1)
 * @param port bind port (0: any free port)
 * @param token the bearer token every request must carry, or null (loopback only)
 */
public record AdminSettings(String host, int port, String token) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9465;

    public AdminSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("admin.port must be between 0 and 65535, was " + port);
        }
        if (token != null && token.isBlank()) {
            token = null;
        }
    }

    @Override
    public String toString() {
        return "AdminSettings[host=" + host + ", port=" + port + ", token=" + (token == null ? null : "(redacted)")
                + "]";
    }
}
