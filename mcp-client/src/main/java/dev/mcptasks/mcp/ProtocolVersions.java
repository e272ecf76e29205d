package dev.mcptasks.mcp;

import java.util.List;

/** The MCP protocol versions this client speaks; versions are ISO dates, so they compare as strings. */
public final class ProtocolVersions {
    /** What the client asks for in {@code initialize}. */
    public static final String LATEST = "2025-11-25";
    /** The first version with the tasks utility. */
    public static final String TASKS = "2025-11-25";
    /** Every version the client accepts from a server, newest first. */
    public static final List<String> SUPPORTED = List.of("2025-11-25", "2025-06-18", "2025-03-26");

    private ProtocolVersions() {}

    public static boolean isSupported(String version) {
        return SUPPORTED.contains(version);
    }

    /** Whether {@code version} is {@code minimum} or newer. */
    public static boolean atLeast(String version, String minimum) {
        return version != null && version.compareTo(minimum) >= 0;
    }
}
