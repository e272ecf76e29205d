package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which transport each url with an unconfigured transport turned out to speak, so that only the first connection
 * of the process detects it. Keyed by server name and url.
 */
public final class DetectedTransports {
    /** The memory of this process: every {@link McpSessions} made without one of its own shares it. */
    public static final DetectedTransports PROCESS = new DetectedTransports();

    private final Map<String, String> kinds = new ConcurrentHashMap<>();

    /** The kind this server was found to speak, if known. */
    public Optional<String> kindOf(McpServerSpec spec) {
        return Optional.ofNullable(kinds.get(key(spec)));
    }

    /** Remembers the kind; true when that is news (not known, or known as another kind). */
    boolean remember(McpServerSpec spec, String kind) {
        return !kind.equals(kinds.put(key(spec), kind));
    }

    private static String key(McpServerSpec spec) {
        return spec.name() + " " + spec.url();
    }
}
