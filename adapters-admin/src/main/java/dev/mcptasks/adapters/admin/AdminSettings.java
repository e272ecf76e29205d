package dev.mcptasks.adapters.admin;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where the admin listener binds and who may use it. Beyond loopback a token is mandatory: the listener serves the
 * metrics (principals, servers, tools), the dashboard and its actions. Without any token (loopback only) every
 * request is the {@link AdminPrincipal#LOOPBACK} operator, as the listener has always been open there.
 *
 * @param host bind address (default 127.0.0.1)
 * @param port bind port (0: any free port)
 * @param token the bearer token of the principal {@code admin} (role admin), or null
 * @param users further principals with their tokens and roles (may be empty)
 */
public record AdminSettings(String host, int port, String token, List<AdminUser> users) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 9465;
    /** The principal of {@code admin.token}. */
    public static final String TOKEN_PRINCIPAL = "admin";

    public AdminSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("admin.port must be between 0 and 65535, was " + port);
        }
        if (token != null && token.isBlank()) {
            token = null;
        }
        users = List.copyOf(users);
        Set<String> names = new HashSet<>();
        Set<String> tokens = new HashSet<>();
        for (AdminUser user : principals(token, users)) {
            if (!names.add(user.name())) {
                throw new IllegalArgumentException("admin principal '" + user.name() + "' is configured twice");
            }
            if (!tokens.add(user.token())) {
                throw new IllegalArgumentException("two admin principals share a token");
            }
        }
    }

    public AdminSettings(String host, int port, String token) {
        this(host, port, token, List.of());
    }

    /** Every principal with a token: {@code admin} for {@link #token}, then the users. */
    public List<AdminUser> principals() {
        return principals(token, users);
    }

    /** Whether requests must authenticate (some token is configured). */
    public boolean requiresToken() {
        return !principals().isEmpty();
    }

    private static List<AdminUser> principals(String token, List<AdminUser> users) {
        List<AdminUser> all = new ArrayList<>();
        if (token != null) {
            all.add(new AdminUser(TOKEN_PRINCIPAL, token, AdminRole.ADMIN));
        }
        all.addAll(users);
        return all;
    }

    @Override
    public String toString() {
        return "AdminSettings[host=" + host + ", port=" + port + ", token=" + (token == null ? null : "(redacted)")
                + ", users=" + users + "]";
    }
}
