package dev.mcptasks.app.assembly;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.ResultWatchingClaims;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecords;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event log of a worker: one INFO line on logger {@value #LOGGER} per state change this worker makes, written
 * only once the store accepted it (a write refused by its fence changed nothing and logs nothing here). Lines: a task
 * created remotely, a status change (terminal ones with their error), a cancellation being sent, a user's cancel
 * request, and the takeover of a claim whose previous owner's lease expired. A poll that finds the status unchanged
 * logs nothing. Only the task records (cancel requests) and the claims are watched.
 */
final class EventLoggingRepository implements ComposedTaskRepository {
    private final Roles roles;

    static final String LOGGER = "dev.mcptasks.events";
    private static final Logger EVENTS = LoggerFactory.getLogger(LOGGER);
    private static final int MAX_DETAIL_CHARS = 200;

    EventLoggingRepository(TaskRepository delegate) {
        this.roles = ComposedTaskRepository.of(Objects.requireNonNull(delegate, "delegate"))
                .withTasks(EventLoggingTasks::new)
                .withClaims(EventLoggingClaims::new);
    }

    @Override
    public Roles roles() {
        return roles;
    }

    private static String detail(StoredSnapshot snapshot) {
        String text = snapshot.errorCode() != null ? snapshot.errorCode() + ": " + snapshot.error()
                : snapshot.statusMessage();
        if (text == null || text.isBlank()) {
            return "";
        }
        String line = text.replaceAll("\\s+", " ").strip();
        return " (" + (line.length() > MAX_DETAIL_CHARS ? line.substring(0, MAX_DETAIL_CHARS) + "..." : line) + ")";
    }

    /** A user's cancel requests. */
    private static final class EventLoggingTasks implements ForwardingTaskRecords {
        private final TaskRecords delegate;

        EventLoggingTasks(TaskRecords delegate) {
            this.delegate = delegate;
        }

        @Override
        public TaskRecords delegate() {
            return delegate;
        }

        @Override
        public CancelRequestOutcome requestCancel(TaskId id) {
            CancelRequestOutcome outcome = delegate().requestCancel(id);
            switch (outcome) {
                case CANCELLED_LOCALLY -> EVENTS.info("task {}: pending -> cancelled (cancelled before it was sent)",
                        id.value());
                case REQUESTED -> EVENTS.info("task {}: cancel requested", id.value());
                default -> { }
            }
            return outcome;
        }
    }

    /** Claims and their writes. */
    private static final class EventLoggingClaims implements ResultWatchingClaims {
        private final TaskClaims delegate;

        /** Status of each claimed row when it was claimed, by claim token; removed when the claim ends. */
        private final Map<ClaimToken, TaskStatus> claimedStatus = new ConcurrentHashMap<>();

        EventLoggingClaims(TaskClaims delegate) {
            this.delegate = delegate;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            List<ClaimedTask> claimed = delegate().claimControl(request);
            for (ClaimedTask task : claimed) {
                Claim claim = task.claim();
                claimedStatus.put(claim.token(), task.task().status());
                if (task.recovered()) {
                    // the one takeover line at INFO (the runtime's own is DEBUG); after a crash the phases differ
                    EVENTS.info("task {}: taken over by worker {} for {}: the previous {} claim expired",
                            claim.taskId().value(), claim.owner().value(), claim.phase().wireName(),
                            task.expiredPhase().wireName());
                }
                if (claim.phase() == ClaimPhase.CANCEL && task.task().control().cancelAttemptCount() == 1) {
                    EVENTS.info("task {}: sending the cancel request to {}", claim.taskId().value(),
                            task.task().definition().serverName());
                }
            }
            return claimed;
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            TaskStatus before = claimedStatus.remove(claim.token());
            boolean applied = delegate().applySubmitted(claim, write);
            if (applied) {
                logSubmitted(claim, write, before);
            }
            return applied;
        }

        @Override
        public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
            List<TaskStatus> before = writes.stream().map(write -> claimedStatus.get(write.claim().token())).toList();
            List<Boolean> applied = delegate().applySubmittedAll(writes);
            for (int i = 0; i < writes.size(); i++) {
                ClaimedWrite<SubmitWrite> write = writes.get(i);
                claimedStatus.remove(write.claim().token());
                if (applied.get(i)) {
                    logSubmitted(write.claim(), write.write(), before.get(i));
                }
            }
            return applied;
        }

        private static void logSubmitted(Claim claim, SubmitWrite write, TaskStatus before) {
            String from = before == null ? TaskStatus.PENDING.wireName() : before.wireName();
            if (write.remoteTaskId() == null) {
                // a direct call, or a create answered with its result or an input round: no remote task exists
                EVENTS.info("task {}: answered without a remote task: {} -> {}{}", claim.taskId().value(), from,
                        write.snapshot().status().wireName(), detail(write.snapshot()));
                return;
            }
            EVENTS.info("task {}: created remotely as {}: {} -> {}{}", claim.taskId().value(), write.remoteTaskId(),
                    from, write.snapshot().status().wireName(), detail(write.snapshot()));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            TaskStatus before = claimedStatus.remove(claim.token());
            boolean applied = delegate().applyOutcome(claim, write);
            if (applied) {
                logOutcome(claim, write, before);
            }
            return applied;
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            List<TaskStatus> before = writes.stream().map(write -> claimedStatus.get(write.claim().token())).toList();
            List<Boolean> applied = delegate().applyOutcomes(writes);
            for (int i = 0; i < writes.size(); i++) {
                ClaimedWrite<OutcomeWrite> write = writes.get(i);
                claimedStatus.remove(write.claim().token());
                if (applied.get(i)) {
                    logOutcome(write.claim(), write.write(), before.get(i));
                }
            }
            return applied;
        }

        private static void logOutcome(Claim claim, OutcomeWrite write, TaskStatus before) {
            TaskStatus after = write.snapshot().status();
            if (before != after) {
                EVENTS.info("task {}: {} -> {}{}", claim.taskId().value(), before == null ? "?" : before.wireName(),
                        after.wireName(), detail(write.snapshot()));
            }
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            claimedStatus.remove(claim.token());
            return delegate().releaseAfterFailure(claim, write);
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            claimedStatus.remove(claim.token());
            return delegate().releaseCancelled(claim);
        }
    }
}
