package dev.mcptasks.mcp;

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
 */
public record McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession) {
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);

    public McpServerSettings {
        Objects.requireNonNull(spec, "spec");
        requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("server '" + spec.name() + "': requestTimeout must be positive, was "
                    + requestTimeout);
        }
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
