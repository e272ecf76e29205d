package dev.mcptasks.domain;

import java.util.Locale;

/**
 * The two generations of MCP tasks. They are not wire-compatible, so a task is always driven under the generation it
 * was created with; the generation is derived from the protocol version stored on the task row.
 */
public enum ProtocolGeneration {
    /** The 2025-11-25 tasks utility: {@code initialize}, sessions, {@code task} param, blocking {@code tasks/result}. */
    TASKS_2025_11_25("2025-11-25", "tasks utility"),
    /**
     * The 2026-07-28 tasks extension ({@code io.modelcontextprotocol/tasks}): no handshake, a {@code _meta} envelope
     * on every request, {@code resultType}, results inline in {@code tasks/get}, input answered with
     * {@code tasks/update}.
     */
    TASKS_EXTENSION_2026_07_28("2026-07-28", "tasks extension");

    /** The first protocol version of the extension generation. */
    public static final String VERSION_2026 = "2026-07-28";

    private final String protocolVersion;
    private final String label;

    ProtocolGeneration(String protocolVersion, String label) {
        this.protocolVersion = protocolVersion;
        this.label = label;
    }

    /** How people call it: {@code tasks utility} (2025-11-25) or {@code tasks extension} (2026-07-28). */
    public String label() {
        return label;
    }

    /** The protocol version this client speaks in the generation. */
    public String protocolVersion() {
        return protocolVersion;
    }

    /**
     * The generation of a negotiated protocol version; versions are ISO dates, so they compare as strings. A null
     * version (a row written before the generation existed, or never created) is the 2025-11-25 generation.
     */
    public static ProtocolGeneration ofProtocolVersion(String version) {
        return version != null && version.compareTo(VERSION_2026) >= 0 ? TASKS_EXTENSION_2026_07_28
                : TASKS_2025_11_25;
    }

    /**
     * Parses a configured pin: {@code 2025-11-25} or {@code 2026-07-28}. {@code auto} (no pin) is the caller's
     * business.
     */
    public static ProtocolGeneration fromPin(String value) {
        for (ProtocolGeneration generation : values()) {
            if (generation.protocolVersion.equals(value)) {
                return generation;
            }
        }
        throw new DomainException("unknown protocol generation '" + value + "'; expected auto, 2025-11-25 or"
                + " 2026-07-28");
    }

    /** Whether the runtime can deliver a user's answers to input requests of tasks of this generation. */
    public boolean answersInputRequests() {
        return this == TASKS_EXTENSION_2026_07_28;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
