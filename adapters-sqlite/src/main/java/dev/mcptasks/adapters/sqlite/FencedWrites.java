package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.adapters.sqlite.SqlParams.FailureValues;
import dev.mcptasks.adapters.sqlite.SqlParams.Fence;
import dev.mcptasks.adapters.sqlite.SqlParams.NotifyFence;
import dev.mcptasks.adapters.sqlite.SqlParams.SnapshotValues;
import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.ToIntBiFunction;

/**
 * The claim-fenced writes: each is a single conditional UPDATE on the writer, true iff it changed the row. The hook
 * runs before the writer connection is taken, and "now" is read only once the connection is held, so a write paused
 * in the hook is judged by the time at which it really executes.
 */
final class FencedWrites {
    private final SqliteDatabase database;
    private final Clock clock;
    private final FencedWriteHook hook;

    FencedWrites(SqliteDatabase database, Clock clock, FencedWriteHook hook) {
        this.database = database;
        this.clock = clock;
        this.hook = hook;
    }

    boolean recordProgress(Claim claim, String statusMessage) {
        String message = capped(statusMessage);
        return fenced(FencedWrite.RECORD_PROGRESS, claim.taskId(),
                (mapper, now) -> mapper.recordProgress(fence(claim), now, message));
    }

    boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        AttentionEvent event = write.degradedEvent();
        FailureValues values = new FailureValues(capped(write.error()), write.failedAt().toEpochMilli(),
                write.nextControlAt().toEpochMilli(), write.clearSubmitAttempt(),
                event == null ? null : event.fingerprint(), event == null ? null : event.payloadJson());
        return fenced(FencedWrite.RELEASE_FAILURE, claim.taskId(),
                (mapper, now) -> mapper.releaseAfterFailure(fence(claim), now, values));
    }

    boolean releaseCancelled(Claim claim) {
        return fenced(FencedWrite.RELEASE_CANCELLED, claim.taskId(),
                (mapper, now) -> mapper.releaseCancelled(fence(claim)));
    }

    boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        String capped = capped(reason);
        return fenced(FencedWrite.ABANDON_CANCEL, claim.taskId(),
                (mapper, now) -> mapper.abandonCancel(fence(claim), now, capped, nextControlAt.toEpochMilli()));
    }

    boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner) {
        return fenced(FencedWrite.RELEASE_TO_ENDPOINT, claim.taskId(),
                (mapper, now) -> mapper.releaseToEndpoint(fence(claim), endpointOwner.value()));
    }

    boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        return fenced(FencedWrite.NOTIFY_RETRY, claim.taskId(), (mapper, now) ->
                mapper.retryNotification(notifyFence(claim), capped(error), nextAt.toEpochMilli(), counted));
    }

    boolean deadLetterNotification(NotificationClaim claim, String error) {
        return fenced(FencedWrite.NOTIFY_DEAD_LETTER, claim.taskId(),
                (mapper, now) -> mapper.deadLetterNotification(notifyFence(claim), now, capped(error)));
    }

    boolean releaseNotification(NotificationClaim claim) {
        return fenced(FencedWrite.NOTIFY_RELEASE, claim.taskId(),
                (mapper, now) -> mapper.releaseNotification(notifyFence(claim)));
    }

    // the parameter values of the writes that the batched writes share (BatchedWrites binds the same ones)

    static String describeSubmitted(Claim claim, SubmitWrite write) {
        return describe(FencedWrite.APPLY_SUBMITTED, claim.taskId()) + " with remote task id '"
                + write.remoteTaskId() + "'";
    }

    static SnapshotValues submittedValues(SubmitWrite write, long now) {
        return snapshot(write.snapshot(), write.remoteTaskId(), write.remoteTtlMs(), write.protocolVersion(),
                write.endpointOwner(), write.endpointSession(), write.nextControlAt(), write.event(), write.take(),
                now);
    }

    /** The creator is recorded only when a remote task was created. */
    static String createdBy(Claim claim, SubmitWrite write) {
        return write.remoteTaskId() != null ? claim.owner().value() : null;
    }

    /** An input round before any task: no remote id, and the server asks for input. */
    static boolean inputRound(SubmitWrite write) {
        return write.remoteTaskId() == null && write.snapshot().status() == TaskStatus.INPUT_REQUIRED;
    }

    static SnapshotValues outcomeValues(OutcomeWrite write, long now) {
        return snapshot(write.snapshot(), null, write.remoteTtlMs(), null, null, null, write.nextControlAt(),
                write.event(), write.take(), now);
    }

    /** The column values of a stored snapshot; completed_at is now exactly when the snapshot is terminal. */
    static SnapshotValues snapshot(StoredSnapshot snapshot, String remoteTaskId, Long remoteTtlMs,
            String protocolVersion, WorkerId endpointOwner, String endpointSession, Instant nextControlAt,
            AttentionEvent event, DeliveryTake take, long now) {
        return new SnapshotValues(remoteTaskId, snapshot.status().wireName(), snapshot.statusMessage(),
                snapshot.resultJson(), snapshot.resultTruncated(), snapshot.error(), snapshot.errorCode(),
                snapshot.inputRequiredJson(), remoteTtlMs, protocolVersion,
                endpointOwner == null ? null : endpointOwner.value(), endpointSession,
                nextControlAt == null ? null : nextControlAt.toEpochMilli(),
                snapshot.status().isTerminal() ? now : null,
                event == null ? null : event.fingerprint(), event == null ? null : event.payloadJson(),
                take == null ? null : take.owner().value(), take == null ? null : take.token().value(),
                take == null ? null : now + take.lease().toMillis(), take == null ? null : take.priorEventVersion());
    }

    private boolean fenced(FencedWrite write, TaskId id, ToIntBiFunction<TaskMapper, Long> update) {
        return fenced(write, id, describe(write, id), update);
    }

    private boolean fenced(FencedWrite write, TaskId id, String operation,
            ToIntBiFunction<TaskMapper, Long> update) {
        hook.beforeFencedWrite(write, id);
        return database.write(operation,
                session -> update.applyAsInt(session.mapper(), clock.now().toEpochMilli()) == 1);
    }

    static String describe(FencedWrite write, TaskId id) {
        return write.name().toLowerCase(Locale.ROOT) + " of task " + id.value();
    }

    private static String capped(String error) {
        return SnapshotNormalizer.cap(error, SnapshotNormalizer.MAX_ERROR_CHARS);
    }

    static Fence fence(Claim claim) {
        return new Fence(claim.taskId().value(), claim.phase().wireName(), claim.owner().value(),
                claim.token().value());
    }

    static NotifyFence notifyFence(NotificationClaim claim) {
        return new NotifyFence(claim.taskId().value(), claim.owner().value(), claim.token().value());
    }
}
