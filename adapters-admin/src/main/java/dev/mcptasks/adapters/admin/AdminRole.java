package dev.mcptasks.adapters.admin;

import java.util.Locale;

/** What an admin principal may do: an admin acts (cancel, answer, replay); a viewer only looks. */
public enum AdminRole {
    ADMIN,
    VIEWER;

    public boolean mayAct() {
        return this == ADMIN;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code admin} or {@code viewer}; anything else is refused with the accepted values. */
    public static AdminRole fromWire(String value) {
        for (AdminRole role : values()) {
            if (role.wireName().equals(value)) {
                return role;
            }
        }
        throw new IllegalArgumentException("unknown admin role '" + value + "' (admin or viewer)");
    }
}
