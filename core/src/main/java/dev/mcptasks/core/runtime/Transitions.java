package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Backoff;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.PollPolicy;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Builds the durable writes of runtime-behaviour.md section 5 from what a remote call returned: normalized
 * snapshots, next due times (poll policy with jitter, backoff from the completion time) and attention events.
 */
final class Transitions {
    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final SnapshotNormalizer normalizer;
    private final PollPolicy pollPolicy;
    private final RandomSource random;
    private final IdGenerator ids;

    Transitions(WorkerId worker, RuntimeSettings settings, RandomSource random, IdGenerator ids) {
        this.worker = worker;
        this.settings = settings;
        this.normalizer = new SnapshotNormalizer(settings.maxResultBytes());
        this.pollPolicy = PollPolicy.defaults(settings.pollInterval(), settings.inputRequiredPoll());
        this.random = random;
        this.ids = ids;
    }

    StoredSnapshot normalize(RemoteTaskSnapshot remote) {
        return normalizer.normalize(remote);
    }

    /** A snapshot the remote reported: terminal rows are never due again, others at the next poll time. */
    OutcomeWrite observed(TaskRecord row, RemoteTaskSnapshot remote, Instant completedAt) {
        return observed(row, remote, completedAt, null);
    }

    /**
     * {@link #observed(TaskRecord, RemoteTaskSnapshot, Instant)} after delivering {@code deliveredInputResponsesJson}
     * (the pending answers this claim sent, or null): the store clears them only if they are still the pending ones.
     */
    OutcomeWrite observed(TaskRecord row, RemoteTaskSnapshot remote, Instant completedAt,
            String deliveredInputResponsesJson) {
        StoredSnapshot snapshot = normalizer.normalize(remote);
        AttentionEvent event = event(row, snapshot);
        return new OutcomeWrite(snapshot, remote.remoteTtlMs(), nextDue(snapshot, remote.pollAfter(), completedAt),
                event, deliveredInputResponsesJson, take(row, event));
    }

    /**
     * A status message with a note of the runtime's appended; the server's text is shortened first if needed, so the
     * note survives the cap on stored messages.
     */
    static String withNote(String message, String note) {
        String capped = SnapshotNormalizer.cap(note, SnapshotNormalizer.MAX_ERROR_CHARS / 2);
        if (message == null || message.isBlank()) {
            return capped;
        }
        return SnapshotNormalizer.cap(message, SnapshotNormalizer.MAX_ERROR_CHARS - capped.length() - 3) + " ("
                + capped + ")";
    }

    /** A terminal outcome decided locally (lost task, protocol error, refused or unknown submission). */
    OutcomeWrite terminal(TaskRecord row, StoredSnapshot snapshot) {
        AttentionEvent event = event(row, snapshot);
        return new OutcomeWrite(snapshot, null, null, event, null, take(row, event));
    }

    /**
     * The delivery a result write of the claimed {@code row} offers to take of its {@code event} for this worker
     * ({@link DeliveryTake}): only for a new event on an outbox that was idle (none or delivered) when the row was
     * claimed, which nothing but this claim's own last write can change; null otherwise. The worker's repository
     * keeps the offer only while a delivery slot is free.
     */
    DeliveryTake take(TaskRecord row, AttentionEvent event) {
        TaskRecord.Outbox outbox = row.outbox();
        if (event == null || event.fingerprint().equals(outbox.eventFingerprint())
                || (outbox.status() != NotificationStatus.NONE && outbox.status() != NotificationStatus.DELIVERED)) {
            return null;
        }
        return new DeliveryTake(worker, ids.newClaimToken(), settings.lease(),
                outbox.eventVersion());
    }

    /** The next due time of a stored snapshot: null when terminal. */
    Instant nextDue(StoredSnapshot snapshot, Duration serverHint, Instant completedAt) {
        return snapshot.status().isTerminal() ? null
                : pollPolicy.nextPollAt(completedAt, snapshot.status(), serverHint, random);
    }

    AttentionEvent event(TaskRecord row, StoredSnapshot snapshot) {
        return AttentionEvent.forSnapshot(row.id(), row.definition().serverName(), row.definition().toolName(),
                snapshot).orElse(null);
    }

    /**
     * A failure release: due again after min(pollInterval x 2^n, maxBackoff) from the failure time, n being the
     * consecutive errors before this one. The tracking-degraded event is raised once per episode, by the failure
     * that reaches {@code degradedAfterErrors}.
     */
    FailureWrite failure(TaskRecord row, String error, Instant failedAt, boolean clearSubmitAttempt,
            boolean tracksDegradation) {
        int before = row.control().consecutiveErrorCount();
        Instant next = failedAt.plus(Backoff.delay(settings.pollInterval(), before, settings.maxBackoff()));
        AttentionEvent degraded = null;
        if (tracksDegradation && before + 1 == settings.degradedAfterErrors()) {
            Instant episode = row.control().lastPolledAt() != null ? row.control().lastPolledAt()
                    : row.definition().createdAt();
            degraded = AttentionEvent.trackingDegraded(row.id(), row.definition().serverName(), row.status(),
                    String.valueOf(episode), error);
        }
        return new FailureWrite(SnapshotNormalizer.cap(error, SnapshotNormalizer.MAX_ERROR_CHARS), failedAt, next,
                clearSubmitAttempt, degraded);
    }

    /** How to treat a failed call: a {@link RemoteCallException} says so; anything else is transient. */
    static RemoteFailure classify(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RemoteCallException remote ? remote.failure() : RemoteFailure.TRANSIENT;
    }

    static String describe(Throwable error) {
        Throwable cause = unwrap(error);
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName() : message;
    }

    static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
