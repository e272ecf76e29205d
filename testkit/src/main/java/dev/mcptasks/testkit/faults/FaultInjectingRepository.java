package dev.mcptasks.testkit.faults;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A repository decorator for fault tests: per task, a fenced write ({@code renew} included) can be made to throw or
 * to block in a {@link Gate} until the test releases it (a hung or slow database); claim scans of one phase can be
 * blocked the same way. Every fenced write attempt is counted per kind and task, whatever its outcome. Only the
 * claims and the outbox are wrapped; everything else passes straight to the delegate.
 */
public final class FaultInjectingRepository implements ComposedTaskRepository, CloseableTaskRepository {
    private final Roles roles;
    private record Key(FencedWrite write, TaskId task) {}

    private record ClaimFailure(RuntimeException error, AtomicInteger remaining) {}

    private final TaskRepository delegate;
    private final Faults faults;

    public FaultInjectingRepository(TaskRepository delegate) {
        this(delegate, new Faults());
    }

    private FaultInjectingRepository(TaskRepository delegate, Faults faults) {
        this.roles = ComposedTaskRepository.of(delegate)
                .withClaims(claims -> new FaultyClaims(claims, faults))
                .withOutbox(outbox -> new FaultyOutbox(outbox, faults));
        this.delegate = delegate;
        this.faults = faults;
    }

    @Override
    public Roles roles() {
        return roles;
    }

    /** Every {@code write} for {@code task} throws {@code error} until {@link #heal} is called. */
    public void fail(FencedWrite write, TaskId task, RuntimeException error) {
        faults.failures.put(new Key(write, task), error);
    }

    /** {@code write} for {@code task} blocks until the returned gate is released. */
    public Gate block(FencedWrite write, TaskId task) {
        Gate gate = new Gate();
        faults.gates.put(new Key(write, task), gate);
        return gate;
    }

    /** Claim scans of {@code phase} block until the returned gate is released. */
    public Gate blockClaims(ClaimPhase phase) {
        Gate gate = new Gate();
        faults.claimGates.put(phase, gate);
        return gate;
    }

    /** The next {@code times} claim scans of {@code phase} throw {@code error} (changing nothing). */
    public void failClaims(ClaimPhase phase, RuntimeException error, int times) {
        faults.claimFailures.put(phase, new ClaimFailure(error, new AtomicInteger(times)));
    }

    /** Removes the failure and releases the gate of {@code write} for {@code task}. */
    public void heal(FencedWrite write, TaskId task) {
        faults.failures.remove(new Key(write, task));
        Gate gate = faults.gates.remove(new Key(write, task));
        if (gate != null) {
            gate.release();
        }
    }

    /** Releases every gate and removes every failure (test clean-up). */
    public void healAll() {
        faults.failures.clear();
        faults.claimFailures.clear();
        faults.gates.values().forEach(Gate::release);
        faults.claimGates.values().forEach(Gate::release);
    }

    /** How many times {@code write} was attempted for {@code task} (including failed and blocked attempts). */
    public int attempts(FencedWrite write, TaskId task) {
        AtomicInteger count = faults.attempts.get(new Key(write, task));
        return count == null ? 0 : count.get();
    }

    /** Closes the delegate when it owns resources. */
    @Override
    public void close() {
        healAll();
        if (delegate instanceof CloseableTaskRepository closeable) {
            closeable.close();
        }
    }

    /** The failures, gates and attempt counts the test set, shared by the wrapped roles. */
    private static final class Faults {
        private final Map<Key, RuntimeException> failures = new ConcurrentHashMap<>();
        private final Map<Key, Gate> gates = new ConcurrentHashMap<>();
        private final Map<ClaimPhase, Gate> claimGates = new ConcurrentHashMap<>();
        private final Map<ClaimPhase, ClaimFailure> claimFailures = new ConcurrentHashMap<>();
        private final Map<Key, AtomicInteger> attempts = new ConcurrentHashMap<>();

        <T> T fenced(FencedWrite write, TaskId task, Supplier<T> call) {
            Key key = new Key(write, task);
            attempts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
            Gate gate = gates.get(key);
            if (gate != null) {
                gate.pass();
            }
            RuntimeException failure = failures.get(key);
            if (failure != null) {
                throw failure;
            }
            return call.get();
        }

        void claiming(ClaimPhase phase) {
            Gate gate = claimGates.get(phase);
            if (gate != null) {
                gate.pass();
            }
            ClaimFailure failure = claimFailures.get(phase);
            if (failure != null && failure.remaining().getAndDecrement() > 0) {
                throw failure.error();
            }
        }
    }

    /** Claim scans and the claims' fenced writes, failing or blocking as the test set. */
    private static final class FaultyClaims implements ForwardingTaskClaims {
        private final TaskClaims delegate;
        private final Faults faults;

        FaultyClaims(TaskClaims delegate, Faults faults) {
            this.delegate = delegate;
            this.faults = faults;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            faults.claiming(request.phase());
            return delegate().claimControl(request);
        }

        @Override
        public boolean renew(Claim claim, Duration lease) {
            return faults.fenced(FencedWrite.RENEW, claim.taskId(), () -> delegate().renew(claim, lease));
        }

        @Override
        public boolean recordSubmitAttempt(Claim claim) {
            return faults.fenced(FencedWrite.RECORD_SUBMIT_ATTEMPT, claim.taskId(),
                    () -> delegate().recordSubmitAttempt(claim));
        }

        @Override
        public boolean recordProgress(Claim claim, String statusMessage) {
            return faults.fenced(FencedWrite.RECORD_PROGRESS, claim.taskId(),
                    () -> delegate().recordProgress(claim, statusMessage));
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            return faults.fenced(FencedWrite.APPLY_SUBMITTED, claim.taskId(),
                    () -> delegate().applySubmitted(claim, write));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return faults.fenced(FencedWrite.APPLY_OUTCOME, claim.taskId(), () -> delegate().applyOutcome(claim, write));
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            return faults.fenced(FencedWrite.RELEASE_FAILURE, claim.taskId(),
                    () -> delegate().releaseAfterFailure(claim, write));
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            return faults.fenced(FencedWrite.RELEASE_CANCELLED, claim.taskId(),
                    () -> delegate().releaseCancelled(claim));
        }

        @Override
        public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
            return faults.fenced(FencedWrite.ABANDON_CANCEL, claim.taskId(),
                    () -> delegate().abandonCancel(claim, reason, nextControlAt));
        }
    }

    /** The deliveries' fenced writes, failing or blocking as the test set. */
    private static final class FaultyOutbox implements ForwardingNotificationOutbox {
        private final NotificationOutbox delegate;
        private final Faults faults;

        FaultyOutbox(NotificationOutbox delegate, Faults faults) {
            this.delegate = delegate;
            this.faults = faults;
        }

        @Override
        public NotificationOutbox delegate() {
            return delegate;
        }

        @Override
        public boolean markDispatched(NotificationClaim claim) {
            return faults.fenced(FencedWrite.NOTIFY_DISPATCH, claim.taskId(), () -> delegate().markDispatched(claim));
        }

        @Override
        public boolean finishNotification(NotificationClaim claim) {
            return faults.fenced(FencedWrite.NOTIFY_FINISH, claim.taskId(),
                    () -> delegate().finishNotification(claim));
        }

        @Override
        public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
            return faults.fenced(FencedWrite.NOTIFY_RETRY, claim.taskId(),
                    () -> delegate().retryNotification(claim, error, nextAt, counted));
        }

        @Override
        public boolean deadLetterNotification(NotificationClaim claim, String error) {
            return faults.fenced(FencedWrite.NOTIFY_DEAD_LETTER, claim.taskId(),
                    () -> delegate().deadLetterNotification(claim, error));
        }

        @Override
        public boolean releaseNotification(NotificationClaim claim) {
            return faults.fenced(FencedWrite.NOTIFY_RELEASE, claim.taskId(),
                    () -> delegate().releaseNotification(claim));
        }
    }
}
