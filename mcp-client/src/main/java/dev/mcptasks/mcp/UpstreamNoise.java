package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.ports.Clock;
import java.time.Duration;
import java.util.Set;
import org.slf4j.Logger;

/**
 * The log lines an upstream can provoke at will (messages that are not JSON, answers to unknown ids, server requests
 * we refuse), bounded so that a server flooding them cannot flood the log: at most {@link #LINES_PER_WINDOW} per
 * {@link #WINDOW} of one server, then one line counting what was left out. Lines name the kind and size of what
 * arrived, never its content, which may be anything the upstream chose to send.
 */
final class UpstreamNoise {
    static final int LINES_PER_WINDOW = 10;
    static final Duration WINDOW = Duration.ofMinutes(1);
    /** The requests MCP lets a server send a client (2025-11-25 and the 2026-07-28 tasks extension). */
    private static final Set<String> SERVER_METHODS = Set.of("ping", "sampling/createMessage", "roots/list",
            "elicitation/create", "tasks/get", "tasks/result", "tasks/list", "tasks/cancel");

    private final Logger log;
    private final Clock clock;
    private final String serverName;
    private long windowStart; // guarded by this
    private int lines; // guarded by this
    private long suppressed; // guarded by this

    UpstreamNoise(Logger log, Clock clock, String serverName) {
        this.log = log;
        this.clock = clock;
        this.serverName = serverName;
        this.windowStart = clock.nanoTime();
    }

    /** Logs {@code what} (about server {@code serverName}) at WARN unless this window's lines are spent. */
    void warn(String what) {
        long dropped = -1;
        boolean write;
        synchronized (this) {
            long now = clock.nanoTime();
            if (now - windowStart >= WINDOW.toNanos()) {
                dropped = suppressed;
                windowStart = now;
                lines = 0;
                suppressed = 0;
            }
            write = lines < LINES_PER_WINDOW;
            if (write) {
                lines++;
            } else {
                suppressed++;
            }
        }
        if (dropped > 0) {
            log.warn("server '{}': {} more such lines left out in the last {} s", serverName, dropped,
                    WINDOW.toSeconds());
        }
        if (write) {
            log.warn("server '{}': {}", serverName, what);
        }
    }

    /**
     * A server request's method as logged: one MCP defines for servers to send as it is, anything else by its size
     * only (an upstream echoing what it was sent could otherwise put our headers into our log).
     */
    static String describe(String method) {
        return SERVER_METHODS.contains(method) ? method : "(a method of " + method.length() + " characters)";
    }

    /** A JSON-RPC id as logged: short values as they are, anything else by kind and size. */
    static String describe(JsonNode id) {
        if (id == null) {
            return "(none)";
        }
        if ((id.isTextual() && id.textValue().length() <= 64 && id.textValue().matches("[A-Za-z0-9_.:-]*"))
                || id.isIntegralNumber()) {
            return id.toString();
        }
        return "(a " + id.getNodeType().name().toLowerCase() + " of " + id.toString().length() + " characters)";
    }
}
