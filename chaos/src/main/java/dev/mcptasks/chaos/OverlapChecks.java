package dev.mcptasks.chaos;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Control calls on one remote task (status, result fetch, cancel) must not overlap, except for the kinds the README
 * documents ("What is guaranteed, and what is not"): the earlier call's process died (SIGKILL), lost its event loop
 * (SIGSTOP past the lease) or shut down (SIGTERM drains, then releases) while the call was in flight, so a peer's
 * recovered call overlaps it. Any other overlap is a violation: {@code overlap_between_live_workers}, or
 * {@code overlap_within_one_worker} when one worker overlaps its own call.
 */
public final class OverlapChecks {
    static final Set<String> CONTROL_METHODS = Set.of("tasks/get", "tasks/result", "tasks/cancel", "job_status",
            "cancel_job");

    static final long IN_TRANSIT_MS = 1_000;

    private OverlapChecks() {}

    public static CheckResult check(ServerJournal journal, FaultLog faults) {
        CheckResult.Builder result = new CheckResult.Builder();
        result.zero("overlaps explained by a fault");
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
                        judge(first, later, journal, faults, result);
                    }
                }
            }
        }
        return result.build();
    }

    private static void judge(ServerJournal.Call first, ServerJournal.Call later, ServerJournal journal,
            FaultLog faults, CheckResult.Builder result) {
        String firstClient = journal.client(first.session());
        // a request sent just before a SIGKILL may be read by the server just after it
        Optional<FaultEvent> cause = faults.interruption(firstClient, first.beginMs() - IN_TRANSIT_MS, later.beginMs());
        if (cause.isPresent()) {
            result.count("overlaps explained by a fault");
            result.count("overlaps after " + cause.get().kind());
            return;
        }
        String laterClient = journal.client(later.session());
        // one worker with itself breaks the runtime's own rule (a row whose call is still draining is excluded from
        // that worker's later claims); two live workers mean a claim was handed over while its call ran
        String kind = firstClient.equals(laterClient) ? "overlap_within_one_worker" : "overlap_between_live_workers";
        result.violation(kind, first.taskId(), first.method() + " from " + firstClient
                + " [" + first.beginMs() + ".." + (first.endMs() == null ? "unanswered" : first.endMs()) + "] and "
                + later.method() + " from " + laterClient + " [" + later.beginMs() + ".."
                + (later.endMs() == null ? "unanswered" : later.endMs()) + "], and " + firstClient
                + " was neither killed, stopped nor terminated in between");
    }
}
