package dev.mcptasks.adapters.admin;

import java.util.Objects;

/**
 * Who asks the admin listener: the name recorded in the audit log for their actions, and their role.
 *
 * @param name a configured user's name, {@code admin} for {@code admin.token}, {@code loopback} on the open
 *     loopback listener
 */
public record AdminPrincipal(String name, AdminRole role) {
    /** The operator of a loopback listener without tokens: whoever can reach 127.0.0.1 may act, as before. */
    public static final AdminPrincipal LOOPBACK = new AdminPrincipal("loopback", AdminRole.ADMIN);

    public AdminPrincipal {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
    }
}
