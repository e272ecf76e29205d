package dev.mcptasks.ports.audit;

/** What an audited caller did. */
public enum AuditAction {
    SUBMIT,
    CANCEL_REQUEST,
    ANSWER_INPUT,
    PURGE,
    /** Any other operator action (a replay of dead letters, a bulk cancel); the detail says which. */
    OPERATOR;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static AuditAction fromWire(String value) {
        for (AuditAction action : values()) {
            if (action.wireName().equals(value)) {
                return action;
            }
        }
        throw new IllegalArgumentException("unknown audit action '" + value + "'");
    }
}
