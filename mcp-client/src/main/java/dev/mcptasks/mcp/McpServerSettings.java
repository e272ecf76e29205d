package dev.mcptasks.mcp;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.time.Duration;
import java.util.Objects;

/**
 * How the client treats one configured server.
 *
 * @param spec how to reach it
 * @param requestTimeout bound on every request ({@code toolCallTimeoutSeconds}); independent of leases
 * @param tasksBoundToSession whether an HTTP server is configured to keep tasks per MCP session (server-everything
 *     does), so its tasks are reachable only through the session that created them; stdio tasks always are. False
 *     by default: a shared server lets any worker take over a crashed worker's tasks when its lease expires, and the
 *     runtime detects a server that binds tasks to sessions when another session cannot see them
 * @param pinnedGeneration the protocol generation to speak with new tasks of this server ({@code protocol} setting),
 *     or null to discover it ({@code server/discover} first, {@code initialize} as the fallback). Existing tasks are
 *     always driven under the generation they were created with.
 */
public record McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession,
        ProtocolGeneration pinnedGeneration) {
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    public McpServerSettings {
        Objects.requireNonNull(spec, "spec");
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("server '" + spec.name() + "': requestTimeout must be positive, was "
                    + requestTimeout);
        }
    }

    public McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession) {
        this(spec, requestTimeout, tasksBoundToSession, null);
    }

    /** Defaults: 60 s per request; tasks of an HTTP server shared across sessions (stdio tasks are process-local). */
    public static McpServerSettings of(McpServerSpec spec) {
        return new McpServerSettings(spec, DEFAULT_REQUEST_TIMEOUT, false);
    }

    public String name() {
        return spec.name();
    }

    /** Whether tasks created through this server live only in this worker's endpoint (process or session). */
    public boolean tasksProcessLocal() {
        return spec.isStdio() || tasksBoundToSession;
    }
}
