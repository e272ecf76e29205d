package dev.mcptasks.mcp;

import java.util.Locale;

/**
 * How a tool of a 2025-11-25 server is called ({@code callMode} per server, {@code callModes} per tool).
 * {@link #AUTO} follows the tool's {@code execution.taskSupport}: {@code required} as a task, {@code optional} as a
 * task when the server advertises task tool calls and else directly, absent or {@code forbidden} directly.
 * {@link #TASK} only ever creates tasks (a tool without task support is refused, nothing sent); {@link #DIRECT} calls
 * every tool as one plain {@code tools/call} held open until its result.
 */
public enum CallMode {
    AUTO, TASK, DIRECT;

    /** The configured spelling: {@code auto}, {@code task} or {@code direct}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The mode named {@code value}; {@link IllegalArgumentException} naming the choices otherwise. */
    public static CallMode fromConfig(String value) {
        for (CallMode mode : values()) {
            if (mode.wireName().equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be auto, task or direct, was '" + value + "'");
    }
}
