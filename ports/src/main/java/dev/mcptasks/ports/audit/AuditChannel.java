package dev.mcptasks.ports.audit;

/** Where an audited action came in. */
public enum AuditChannel {
    /** An MCP client through the gateway; the principal is its token's. */
    GATEWAY,
    /** An operator at the command line; the principal is the OS user. */
    CLI,
    /** An operator on the admin listener; the principal is the admin token's. */
    ADMIN,
    /** A worker acting on its own (retention); the principal is the worker id. */
    WORKER;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static AuditChannel fromWire(String value) {
        for (AuditChannel channel : values()) {
            if (channel.wireName().equals(value)) {
                return channel;
            }
        }
        throw new IllegalArgumentException("unknown audit channel '" + value + "'");
    }
}
