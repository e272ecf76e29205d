package dev.mcptasks.chaos;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Control calls on one remote task (status, result fetch, cancel) must not overlap, except for the kinds docs/guarantees.md
 * documents ("What is guaranteed, and what is not"), each counted under its own figure:
 * <ul>
 *   <li>a fault: the earlier call's process died (SIGKILL), lost its event loop (SIGSTOP past the lease) or shut down
 *       (SIGTERM drains, then releases) while the call was in flight, so a peer's recovered call overlaps it; or
 *       the later call's process was stopped (SIGSTOP) before the earlier call began and wrote the later request
 *       within {@link #IN_TRANSIT_MS} of being continued: it checked its lease before the stop, and no check can
 *       close the gap between the last check and the write (counted as {@code overlaps after STOP, sent on resume});
 *   <li>rule (a), abandoned: the client closed the earlier call's connection before it was answered (a timed-out or
 *       cancelled call, whose renewal was rejected), and the server saw that close before the later call began; the
 *       server does not notice a closed connection and keeps working on the call;
 *   <li>rule (b), cancel phase: the user's cancel takes the row from a poll in flight (runtime-behaviour section 5),
 *       so the later call began at or after the task's {@code cancel_requested_at} and the earlier one is a status
 *       call that began before it, or within {@link #IN_TRANSIT_MS} after it: the worker confirms a poll's claim
 *       with the store just before it sends (at most 50 ms before), and a cancel request stored between that
 *       confirmation and the server reading the request cannot stop a request already on its way.
 * </ul>
 * Any other overlap is a violation: {@code overlap_between_live_workers}, or {@code overlap_within_one_worker} when one
 * worker overlaps its own call.
 */
public final class OverlapChecks {
    /** Both generations: 2026-07-28 has no {@code tasks/result}, but answers input with {@code tasks/update}. */
    static final Set<String> CONTROL_METHODS = Set.of("tasks/get", "tasks/result", "tasks/cancel", "tasks/update",
            "job_status", "cancel_job");

    /** The status calls a cancel request may take a row from. */
    static final Set<String> STATUS_METHODS = Set.of("tasks/get", "job_status");

    static final long IN_TRANSIT_MS = 1_000;

    static final String BY_FAULT = "overlaps explained by a fault";
    static final String BY_ABANDON = "overlaps explained: earlier call abandoned by the client (a)";
    static final String BY_CANCEL = "overlaps explained: cancel phase over an earlier status call (b)";

    private OverlapChecks() {}

    /** Checks without store rows: no cancel request is known, so rule (b) explains nothing. */
    public static CheckResult check(ServerJournal journal, FaultLog faults) {
        return check(journal, faults, List.of());
    }

    public static CheckResult check(ServerJournal journal, FaultLog faults, List<StoreRow> rows) {
        CheckResult.Builder result = new CheckResult.Builder();
        result.zero(BY_FAULT);
        result.zero(BY_ABANDON);
        result.zero(BY_CANCEL);
        Map<String, Long> cancelRequestedAt = new HashMap<>();
        for (StoreRow row : rows) {
            if (row.remoteTaskId() != null && row.cancelRequestedAtMs() != null) {
                cancelRequestedAt.put(row.remoteTaskId(), row.cancelRequestedAtMs());
            }
        }
        Map<String, List<ServerJournal.Call>> byTask = journal.calls().stream()
                .filter(call -> CONTROL_METHODS.contains(call.method()))
                .collect(Collectors.groupingBy(ServerJournal.Call::taskId));
        for (List<ServerJournal.Call> calls : byTask.values()) {
            List<ServerJournal.Call> ordered = calls.stream()
                    .sorted(Comparator.comparingLong(ServerJournal.Call::beginMs)
                            .thenComparingLong(ServerJournal.Call::id))
                    .toList();
            for (int i = 0; i < ordered.size(); i++) {
                for (int j = i + 1; j < ordered.size(); j++) {
                    ServerJournal.Call first = ordered.get(i);
                    ServerJournal.Call later = ordered.get(j);
                    if (first.overlaps(later)) {
                        judge(first, later, cancelRequestedAt.get(first.taskId()), journal, faults, result);
                    }
                }
            }
        }
        return result.build();
    }

    private static void judge(ServerJournal.Call first, ServerJournal.Call later, Long cancelRequestedAt,
            ServerJournal journal, FaultLog faults, CheckResult.Builder result) {
        String firstClient = journal.client(first);
        // a request sent just before a SIGKILL may be read by the server just after it
        Optional<FaultEvent> cause = faults.interruption(firstClient, first.beginMs() - IN_TRANSIT_MS, later.beginMs());
        if (cause.isPresent()) {
            result.count(BY_FAULT);
            result.count("overlaps after " + cause.get().kind());
            return;
        }
        String laterClient = journal.client(later);
        Optional<FaultEvent> resumed = faults.resumedJustBefore(laterClient, first.beginMs(), later.beginMs(),
                IN_TRANSIT_MS);
        if (resumed.isPresent()) {
            result.count(BY_FAULT);
            result.count("overlaps after STOP, sent on resume");
            return;
        }
        if (first.abandonedBefore(later)) {
            result.count(BY_ABANDON);
            return;
        }
        // the worker confirms a poll's claim with the store at most RECONFIRM_AFTER (50 ms) before it sends; a cancel
        // request stored in between is seen by the server after the status request's begin only in transit
        if (cancelRequestedAt != null && STATUS_METHODS.contains(first.method())
                && first.beginMs() < cancelRequestedAt + IN_TRANSIT_MS && later.beginMs() >= cancelRequestedAt) {
            result.count(BY_CANCEL);
            return;
        }
        // one worker with itself breaks the runtime's own rule (a row whose call is still draining is excluded from
        // that worker's later claims); two live workers mean a claim was handed over while its call ran
        String kind = firstClient.equals(laterClient) ? "overlap_within_one_worker" : "overlap_between_live_workers";
        result.violation(kind, first.taskId(), first.method() + " from " + firstClient
                + " [" + first.beginMs() + ".." + (first.endMs() == null ? "unanswered" : first.endMs()) + "] and "
                + later.method() + " from " + laterClient + " [" + later.beginMs() + ".."
                + (later.endMs() == null ? "unanswered" : later.endMs()) + "], and " + firstClient
                + " was neither killed, stopped nor terminated in between, did not abandon the first call before the"
                + " second began, and no cancel request separates a status call from a cancel-phase call"
                + (cancelRequestedAt == null ? " (no cancel was requested)"
                        : " (cancel requested at " + cancelRequestedAt + ")"));
    }
}
