package dev.mcptasks.app.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code admin} object: the listener of {@code serve} and {@code gateway} for {@code /metrics}, {@code /healthz},
 * {@code /readyz} and the dashboard. Without the object no admin listener runs.
 *
 * @param host bind address, loopback by default
 * @param port bind port (0: any free port)
 * @param token the bearer token of the principal {@code admin} (role admin), or null
 * @param users further principals ({@code admin.users}: name to token and role); a token (this or a user's) is
 *     required when {@code host} is not loopback
 */
public record AdminConfig(String host, int port, String token, List<User> users) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9465;
    static final Set<String> KEYS = Set.of("host", "port", "token", "users");
    static final Set<String> USER_KEYS = Set.of("token", "role");
    /** The roles of {@code admin.users}: an admin may act, a viewer only looks. */
    public static final Set<String> ROLES = Set.of("admin", "viewer");

    /** One of {@code admin.users}. */
    public record User(String name, String token, String role) {
        @Override
        public String toString() {
            return "User[name=" + name + ", token=(redacted), role=" + role + "]";
        }
    }

    public AdminConfig {
        users = List.copyOf(users);
    }

    public AdminConfig(String host, int port, String token) {
        this(host, port, token, List.of());
    }

    @Override
    public String toString() {
        return "AdminConfig[host=" + host + ", port=" + port + ", token=" + (token == null ? null : "(redacted)")
                + ", users=" + users + "]";
    }

    /** Reads {@code admin}; a non-loopback host without a token is refused, naming the key. */
    static AdminConfig read(JsonSection admin, EnvSubstitution substitution) {
        admin.requireOnly(KEYS);
        String host = admin.has("host") ? admin.requiredString("host").trim() : DEFAULT_HOST;
        if (host.isEmpty()) {
            throw new ConfigException(admin.path("host"), admin.path("host") + " must not be empty");
        }
        int port = admin.intIn("port", DEFAULT_PORT, 0, 65_535);
        String token = admin.has("token") ? token(admin, substitution) : null;
        List<User> users = users(admin.section("users"), substitution);
        Set<String> tokens = new HashSet<>();
        if (token != null) {
            tokens.add(token);
        }
        for (User user : users) {
            if (user.name().equals("admin") && token != null) {
                throw new ConfigException(admin.path("users"), admin.path("users") + " names 'admin', the principal of "
                        + admin.path("token") + ": choose another name");
            }
            if (!tokens.add(user.token())) {
                throw new ConfigException(admin.path("users"), admin.path("users") + "." + user.name()
                        + ".token is another principal's token: each principal needs its own");
            }
        }
        if (tokens.isEmpty() && !GatewayConfig.isLoopback(host)) {
            throw new ConfigException(admin.path("token"), admin.path("host") + " is '" + host
                    + "', not a loopback address: configure " + admin.path("token") + " (or " + admin.path("users")
                    + ") to serve the admin listener beyond this machine");
        }
        return new AdminConfig(host, port, token, users);
    }

    private static List<User> users(JsonSection section, EnvSubstitution substitution) {
        List<User> users = new ArrayList<>();
        for (Map.Entry<String, JsonSection> entry : section.members().entrySet()) {
            JsonSection user = entry.getValue();
            user.requireOnly(USER_KEYS);
            String name = entry.getKey();
            if (name.isBlank() || name.chars().anyMatch(c -> c <= ' ' || c > '~')) {
                throw new ConfigException(user.path(), user.path() + ": a user's name must be printable ASCII"
                        + " without spaces");
            }
            String role = user.requiredString("role");
            if (!ROLES.contains(role)) {
                throw new ConfigException(user.path("role"), user.path("role") + " must be admin or viewer, was '"
                        + role + "'");
            }
            users.add(new User(name, token(user, substitution), role));
        }
        return users;
    }

    private static String token(JsonSection section, EnvSubstitution substitution) {
        String token = substitution.resolve(section.path("token"), section.requiredString("token"));
        if (token.length() < GatewayConfigReader.MIN_TOKEN_LENGTH
                || token.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new ConfigException(section.path("token"), section.path("token") + " must be at least "
                    + GatewayConfigReader.MIN_TOKEN_LENGTH + " printable ASCII characters without spaces"
                    + " (e.g. openssl rand -base64 32)");
        }
        return token;
    }
}
