package dev.mcptasks.app.demo;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Stages the fence at work for one worker: its first poll result of a row another worker may take over (no
 * process-local endpoint pins it here) is held, together with every renewal of that claim,
 * as a process paused by a long GC or {@code SIGSTOP} would hold them, until the lease expired and another claim of
 * the row was handed out. The worker then resumes and sends its write from the superseded claim, which the store
 * refuses: the stale write the demo counts. Nothing else of the worker is held. The claims are staged, and the store
 * scope writes one write at a time.
 */
final class PausedWorkerStage implements ComposedTaskRepository {
    private final Roles roles;

    /** Past this the pause ends anyway (a demo that cannot show the takeover still finishes). */
    private static final Duration MAX_PAUSE = Duration.ofSeconds(20);

    /** Where the staged pause is. */
    enum Phase { WAITING, PAUSED, RESUMED }

    private final PausingClaims claims;

    PausedWorkerStage(TaskRepository store, AuditingRepository audit) {
        this(store, new PausingClaims(store, audit));
    }

    private PausedWorkerStage(TaskRepository store, PausingClaims claims) {
        this.roles = ComposedTaskRepository.of(store)
                .withClaims(delegate -> claims)
                .withStoreScope(OneWriteAtATime::new);
        this.claims = claims;
    }

    @Override
    public Roles roles() {
        return roles;
    }

    Phase phase() {
        return claims.phase;
    }

    /** The claim whose write is (or was) held, or null before the pause. */
    Claim held() {
        return claims.held.get();
    }

    /**
     * The paused worker writes one write at a time: a held write inside a group commit's transaction would hold the
     * store's one writer (SQLite) for the whole pause, and no other worker could take the row over.
     */
    private static final class OneWriteAtATime implements ForwardingStoreScope {
        private final StoreScope delegate;

        OneWriteAtATime(StoreScope store) {
            this.delegate = store;
        }

        @Override
        public StoreScope delegate() {
            return delegate;
        }

        @Override
        public <T> T inOneTransaction(Supplier<T> work) {
            throw new UnsupportedOperationException("the staged pause writes one write at a time");
        }
    }

    /** The claims, the first movable poll result and its renewals held until the row was claimed again. */
    private static final class PausingClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final AuditingRepository audit;
        private final AtomicReference<Claim> held = new AtomicReference<>();
        /** Poll claims of rows any worker may take over (no process-local endpoint pins them to this worker). */
        private final Set<ClaimToken> movable = ConcurrentHashMap.newKeySet();
        private volatile Phase phase = Phase.WAITING;

        PausingClaims(TaskClaims store, AuditingRepository audit) {
            this.delegate = store;
            this.audit = audit;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            List<ClaimedTask> claimed = delegate().claimControl(request);
            for (ClaimedTask task : claimed) {
                if (task.claim().phase() == ClaimPhase.POLL && task.task().state().endpointOwner() == null) {
                    movable.add(task.claim().token());
                }
            }
            return claimed;
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            pauseIfFirst(claim);
            return delegate().applyOutcome(claim, write);
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            writes.forEach(write -> pauseIfFirst(write.claim()));
            return delegate().applyOutcomes(writes);
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            pauseIfHeld(claim);
            return delegate().renew(claim, lease);
        }

        @Override
        public List<Boolean> renewAll(List<Claim> claims, Duration lease) {
            claims.forEach(this::pauseIfHeld);
            return delegate().renewAll(claims, lease);
        }

        private void pauseIfFirst(Claim claim) {
            if (movable.contains(claim.token()) && held.compareAndSet(null, claim)) {
                phase = Phase.PAUSED;
                awaitSuperseded(claim);
                phase = Phase.RESUMED;
            }
        }

        private void pauseIfHeld(Claim claim) {
            Claim pausing = held.get();
            if (phase == Phase.PAUSED && pausing != null && pausing.taskId().equals(claim.taskId())
                    && pausing.token().equals(claim.token())) {
                awaitSuperseded(claim);
            }
        }

        /** Waits (in short naps: this is a staged pause, not a test) until the row was claimed again. */
        private void awaitSuperseded(Claim claim) {
            long deadline = System.nanoTime() + MAX_PAUSE.toNanos();
            while (claim.token().equals(audit.latestClaim(claim.taskId())) && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
