package dev.mcptasks.ports.driver;

/**
 * What a driver reports while a submit operation runs, for a tool run as one plain {@code tools/call} held open until
 * its result (a direct call). Called on transport threads, possibly under a driver's lock: implementations return at
 * once, never block and never throw.
 */
public interface SubmitObserver {
    /** Observes nothing. */
    SubmitObserver NONE = new SubmitObserver() {};

    /**
     * The tool call is being sent as a direct call. From now on cancelling the submit operation cancels the call
     * itself (MCP {@code notifications/cancelled} for its request) and leaves no remote task behind to cancel, so
     * a caller may end the task {@code cancelled} when it cancels the operation after this.
     */
    default void directCallSent() {}

    /** The server reported progress of the direct call ({@code notifications/progress} for its token). */
    default void progress(CallProgress progress) {}
}
