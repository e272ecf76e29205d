package dev.mcptasks.chaos;

/**
 * No client reused a JSON-RPC request id within a session. The reference server runs with {@code --strict-ids}: like
 * the TypeScript SDK's server, it routes answers by request id within a session, so a reused id in flight hands one
 * request's answer to another (one task's remote id or result stored on another row). Every reuse is a violation,
 * in flight or not (MCP: an id must not have been used before by the requestor within the same session).
 */
final class RequestIdChecks {
    static final String REUSED = "reused (session, id) pairs";
    static final String REUSED_IN_FLIGHT = "reused ids in flight";

    private RequestIdChecks() {}

    static CheckResult check(ServerJournal journal) {
        CheckResult.Builder result = new CheckResult.Builder();
        result.zero(REUSED);
        result.zero(REUSED_IN_FLIGHT);
        for (ServerJournal.ReusedId reused : journal.reusedIds()) {
            result.count(REUSED);
            if (reused.inFlight()) {
                result.count(REUSED_IN_FLIGHT);
            }
            result.violation("reused_request_id", "session " + reused.session(), "request id " + reused.id()
                    + " sent again in the session" + (reused.inFlight()
                    ? " while the earlier request was in flight (its answer went to the later one)" : ""));
        }
        return result.build();
    }
}
