package dev.mcptasks.app.demo;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Watches every fenced write of the demo's workers for the seed's central promise: no write from a stale claim is
 * accepted. A claim is stale when a newer claim of the same row was handed out before its write started; such a
 * write must be refused by the store. (A write that races a new claim is not judged: the store orders those.) Only
 * the claims are watched.
 */
final class AuditingRepository implements ComposedTaskRepository {
    private final Roles roles;
    private final AuditingClaims audit;

    AuditingRepository(TaskRepository store) {
        this(store, new AuditingClaims(store));
    }

    private AuditingRepository(TaskRepository store, AuditingClaims audit) {
        this.roles = ComposedTaskRepository.of(store).withClaims(claims -> audit);
        this.audit = audit;
    }

    @Override
    public Roles roles() {
        return roles;
    }

    /** The token of the newest claim handed out for {@code task}, or null before any. */
    ClaimToken latestClaim(TaskId task) {
        return audit.latestClaim.get(task);
    }

    /** Claims of rows whose previous claim expired without being ended (its worker died or stalled). */
    long recoveries() {
        return audit.recoveries.get();
    }

    /** Writes attempted from claims already superseded when they started. */
    long staleAttempts() {
        return audit.staleAttempts.get();
    }

    /** Of those, the ones the store accepted: must be zero. */
    long staleAccepted() {
        return audit.staleAccepted.get();
    }

    /** The claims, each write judged against the newest claim of its row. */
    private static final class AuditingClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final Map<TaskId, ClaimToken> latestClaim = new ConcurrentHashMap<>();
        private final AtomicLong recoveries = new AtomicLong();
        private final AtomicLong staleAttempts = new AtomicLong();
        private final AtomicLong staleAccepted = new AtomicLong();

        AuditingClaims(TaskClaims store) {
            this.delegate = store;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            List<ClaimedTask> claimed = delegate().claimControl(request);
            for (ClaimedTask task : claimed) {
                latestClaim.put(task.claim().taskId(), task.claim().token());
                if (task.recovered()) { // the store saw an expired claim of another generation on the row
                    recoveries.incrementAndGet();
                }
            }
            return claimed;
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            return audited(claim, () -> delegate().renew(claim, lease));
        }

        @Override
        public boolean recordSubmitAttempt(Claim claim) {
            return audited(claim, () -> delegate().recordSubmitAttempt(claim));
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            return audited(claim, () -> delegate().applySubmitted(claim, write));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return audited(claim, () -> delegate().applyOutcome(claim, write));
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            return audited(claim, () -> delegate().releaseAfterFailure(claim, write));
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            return audited(claim, () -> delegate().releaseCancelled(claim));
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            return auditedAll(writes.stream().map(ClaimedWrite::claim).toList(),
                    () -> delegate().applyOutcomes(writes));
        }

        @Override
        public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
            return auditedAll(writes.stream().map(ClaimedWrite::claim).toList(),
                    () -> delegate().applySubmittedAll(writes));
        }

        @Override
        public List<Boolean> renewAll(List<Claim> claims, Duration lease) {
            return auditedAll(claims, () -> delegate().renewAll(claims, lease));
        }

        @Override
        public List<Boolean> recordSubmitAttempts(List<Claim> claims) {
            return auditedAll(claims, () -> delegate().recordSubmitAttempts(claims));
        }

        /** A batched write: each element judged as its own write (staleness is decided before the batch runs). */
        private List<Boolean> auditedAll(List<Claim> claims, Supplier<List<Boolean>> write) {
            List<Boolean> stale = claims.stream().map(this::isStale).toList();
            List<Boolean> accepted = write.get();
            for (int i = 0; i < claims.size(); i++) {
                count(stale.get(i), accepted.get(i));
            }
            return accepted;
        }

        private boolean isStale(Claim claim) {
            ClaimToken latest = latestClaim.get(claim.taskId());
            return latest != null && !latest.equals(claim.token());
        }

        private void count(boolean stale, boolean accepted) {
            if (stale) {
                staleAttempts.incrementAndGet();
                if (accepted) {
                    staleAccepted.incrementAndGet();
                }
            }
        }

        private boolean audited(Claim claim, BooleanSupplier write) {
            boolean stale = isStale(claim);
            boolean accepted = write.getAsBoolean();
            count(stale, accepted);
            return accepted;
        }
    }
}
