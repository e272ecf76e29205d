package dev.mcptasks.testkit;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The control claim scan of the in-memory repository: eligibility, order, limit, and the lease it grants. */
final class InMemoryClaims {
    private static final Comparator<TaskRow> DUE_ORDER =
            Comparator.<TaskRow, Instant>comparing(row -> row.nextControlAt).thenComparing(row -> row.id);

    private final InMemoryStore store;

    InMemoryClaims(InMemoryStore store) {
        this.store = store;
    }

    /** One atomic scan: concurrent callers serialize on the store lock, so each row goes to exactly one worker. */
    List<ClaimedTask> claim(ControlClaimRequest request) {
        synchronized (store.lock) {
            Instant now = store.now();
            // liveness by the store's clock, in the same atomic step as the claim
            Set<WorkerId> live = liveWorkers(now.minus(request.workerStaleAfter()));
            List<TaskRow> candidates = new ArrayList<>();
            for (TaskRow row : store.rows.values()) {
                if (!request.excluded().contains(row.id) && eligible(row, request, now, live)) {
                    candidates.add(row);
                }
            }
            candidates.sort(DUE_ORDER);
            Instant expiresAt = InMemoryStore.expiry(now, request.lease());
            List<ClaimedTask> claimed = new ArrayList<>();
            for (TaskRow row : candidates.subList(0, Math.min(request.limit(), candidates.size()))) {
                Claim claim = new Claim(row.id, request.phase(), request.worker(), store.ids().newClaimToken(),
                        expiresAt);
                // releases clear the owner: only an expired claim is left
                ClaimPhase expired = row.leaseOwner != null ? row.leasePhase : null;
                WorkerId previousOwner = row.leaseOwner;
                row.leasePhase = claim.phase();
                row.leaseOwner = claim.owner();
                row.leaseToken = claim.token();
                row.leaseExpiresAt = expiresAt;
                switch (claim.phase()) {
                    case SUBMIT -> row.submitAttemptCount++;
                    case POLL -> row.pollAttemptCount++;
                    case CANCEL -> row.cancelAttemptCount++;
                    default -> throw new IllegalStateException("not a control phase: " + claim.phase());
                }
                ClaimedTask task = new ClaimedTask(claim, row.toRecord(), expired);
                claimed.add(task);
                if (TaskEvent.recorded(claim.phase(), task.recovered())) {
                    List<TaskEvent> history = new ArrayList<>(row.history);
                    history.add(TaskEvent.of(now, task, expired == null ? null : previousOwner));
                    row.history = List.copyOf(history);
                }
            }
            return claimed;
        }
    }

    private static boolean eligible(TaskRow row, ControlClaimRequest request, Instant now, Set<WorkerId> live) {
        if (!row.isDue(now) || !row.controlLeaseFree(now)) {
            return false;
        }
        return switch (request.phase()) {
            case SUBMIT -> (row.status == TaskStatus.PENDING
                    || (row.awaitsInputBeforeTask() && row.inputResponsesJson != null))
                    && row.cancelRequestedAt == null
                    && (row.definition.principal() == null
                        || !request.atShare().contains(row.definition.principal()));
            // an input round before any task has nothing to poll: it waits for answers, then is submitted again
            case POLL -> row.status.isPollable() && row.remoteTaskId != null && row.cancelRequestedAt == null
                    && endpointReachable(row, request.worker(), live);
            case CANCEL -> row.cancelRequestedAt != null && !row.status.isTerminal()
                    && endpointReachable(row, request.worker(), live);
            case NOTIFY -> false;
        };
    }

    /** A process-local endpoint can only be served by its owner while that owner is alive. */
    private static boolean endpointReachable(TaskRow row, WorkerId worker, Set<WorkerId> live) {
        return row.endpointOwner == null || row.endpointOwner.equals(worker) || !live.contains(row.endpointOwner);
    }

    private Set<WorkerId> liveWorkers(Instant since) {
        Set<WorkerId> live = new HashSet<>();
        for (WorkerRecord worker : store.workers.values()) {
            if (!worker.lastSeenAt().isBefore(since)) {
                live.add(worker.id());
            }
        }
        return live;
    }
}
