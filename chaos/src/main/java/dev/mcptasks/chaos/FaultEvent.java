package dev.mcptasks.chaos;

/**
 * Something the harness did to (or saw of) one incarnation of a serve process.
 *
 * @param tag the incarnation's tag (slot and generation, e.g. {@code w2.3}): its worker id and its MCP client tag
 * @param kind what happened
 * @param atMs when, epoch milliseconds
 * @param detail free text (exit code, duration)
 */
public record FaultEvent(String tag, Kind kind, long atMs, String detail) {

    /** What happened to the process. */
    public enum Kind {
        START,
        /** SIGKILL. */
        KILL,
        /** SIGSTOP; a {@link #CONT} follows. */
        STOP,
        CONT,
        /** SIGTERM: drain and exit. */
        TERM,
        /** The process ended (after KILL or TERM, or on its own). */
        EXIT;

        /** Whether this event can leave a remote call of the incarnation running while a peer takes its claim over. */
        boolean interruptsCalls() {
            return this == KILL || this == STOP || this == TERM || this == EXIT;
        }
    }
}
