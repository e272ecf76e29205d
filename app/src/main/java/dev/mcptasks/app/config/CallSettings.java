package dev.mcptasks.app.config;

import dev.mcptasks.mcp.CallMode;
import java.util.Map;

/**
 * How the tools of one {@code mcp-tasks} server are called: as tasks or as direct calls.
 *
 * @param directCallTimeoutSeconds bound on one direct {@code tools/call} ({@code directCallTimeoutSeconds}), which is
 *     held open until the tool's result
 * @param callMode {@code callMode}: auto (by each tool's {@code execution.taskSupport}), task or direct
 * @param callModes {@code callModes}: per-tool overrides of {@code callMode}
 */
public record CallSettings(int directCallTimeoutSeconds, CallMode callMode, Map<String, CallMode> callModes) {
    public static final int DEFAULT_DIRECT_CALL_TIMEOUT_SECONDS = 3600;
    /** One day: a direct call holds a connection (or the stdio pipe's request slot) for as long as it runs. */
    public static final int MAX_DIRECT_CALL_TIMEOUT_SECONDS = 86_400;

    public CallSettings {
        callModes = Map.copyOf(callModes);
    }

    public static CallSettings defaults() {
        return new CallSettings(DEFAULT_DIRECT_CALL_TIMEOUT_SECONDS, CallMode.AUTO, Map.of());
    }

    /** Whether any tool of the server may be called directly (so a response may stay silent that long). */
    public boolean mayCallDirectly() {
        return callMode != CallMode.TASK || callModes.containsValue(CallMode.AUTO)
                || callModes.containsValue(CallMode.DIRECT);
    }
}
