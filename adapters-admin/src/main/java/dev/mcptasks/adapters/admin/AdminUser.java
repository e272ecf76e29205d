package dev.mcptasks.adapters.admin;

import java.util.Objects;

/**
 * A configured admin principal ({@code admin.users}): its name (in the audit log), its bearer token (also the
 * password of the login form) and its role.
 */
public record AdminUser(String name, String token, AdminRole role) {
    public AdminUser {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(role, "role");
        if (name.isBlank() || token.isBlank()) {
            throw new IllegalArgumentException("an admin user needs a name and a token");
        }
    }

    @Override
    public String toString() {
        return "AdminUser[name=" + name + ", token=(redacted), role=" + role.wireName() + "]";
    }
}
