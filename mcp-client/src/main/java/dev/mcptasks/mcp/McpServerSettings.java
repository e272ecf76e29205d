package dev.mcptasks.mcp;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.time.Duration;
import java.util.Map;
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
 * @param directCallTimeout bound on a direct {@code tools/call} ({@code directCallTimeoutSeconds}), which is held
 *     open until the tool's result: much longer than {@code requestTimeout} by default
 * @param callMode how tools are called unless {@code toolCallModes} names them ({@code callMode})
 * @param toolCallModes per-tool overrides of {@code callMode} ({@code callModes})
 */
public record McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession,
        ProtocolGeneration pinnedGeneration, Duration directCallTimeout, CallMode callMode,
        Map<String, CallMode> toolCallModes) {
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_DIRECT_CALL_TIMEOUT = Duration.ofHours(1);

    public McpServerSettings {
        Objects.requireNonNull(spec, "spec");
        requestTimeout = positive(spec, "requestTimeout", requestTimeout, DEFAULT_REQUEST_TIMEOUT);
        directCallTimeout = positive(spec, "directCallTimeout", directCallTimeout, DEFAULT_DIRECT_CALL_TIMEOUT);
        callMode = callMode == null ? CallMode.AUTO : callMode;
        toolCallModes = toolCallModes == null ? Map.of() : Map.copyOf(toolCallModes);
    }

    public McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession,
            ProtocolGeneration pinnedGeneration) {
        this(spec, requestTimeout, tasksBoundToSession, pinnedGeneration, null, null, null);
    }

    public McpServerSettings(McpServerSpec spec, Duration requestTimeout, boolean tasksBoundToSession) {
        this(spec, requestTimeout, tasksBoundToSession, null);
    }

    private static Duration positive(McpServerSpec spec, String name, Duration value, Duration fallback) {
        Duration chosen = value == null ? fallback : value;
        if (chosen.isNegative() || chosen.isZero()) {
            throw new IllegalArgumentException("server '" + spec.name() + "': " + name + " must be positive, was "
                    + chosen);
        }
        return chosen;
    }

    /** These settings with another generation pin (the second session of a server that speaks two). */
    public McpServerSettings withPinnedGeneration(ProtocolGeneration generation) {
        return new McpServerSettings(spec, requestTimeout, tasksBoundToSession, generation, directCallTimeout,
                callMode, toolCallModes);
    }

    /** These settings with other call modes (server-wide, and per tool). */
    public McpServerSettings withCallModes(CallMode mode, Map<String, CallMode> perTool) {
        return new McpServerSettings(spec, requestTimeout, tasksBoundToSession, pinnedGeneration, directCallTimeout,
                mode, perTool);
    }

    /** How {@code tool} is called: its own mode if configured, else the server's. */
    public CallMode callMode(String tool) {
        return toolCallModes.getOrDefault(tool, callMode);
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
