package dev.mcptasks.app.cli;

/** The exit codes of {@code mcp-tasks}, stable for scripts. */
public final class ExitCodes {
    public static final int OK = 0;
    /** A failed or cancelled task ({@code result}), or an unexpected error. */
    public static final int FAILED = 1;
    /** A usage or configuration error. */
    public static final int USAGE = 2;
    /** The task was not terminal by the deadline ({@code result --wait}). */
    public static final int NOT_TERMINAL = 3;
    /** No such task. */
    public static final int NOT_FOUND = 4;
    /** The store cannot be opened or reached, or failed (bad path, unreadable file, database down or refusing). */
    public static final int STORE_UNAVAILABLE = 5;
    /** A worker's internal thread died of an error: it stopped, released its claims and deregistered. */
    public static final int INTERNAL_ERROR = dev.mcptasks.app.assembly.WorkerProcess.EXIT_INTERNAL_ERROR;

    private ExitCodes() {}
}
