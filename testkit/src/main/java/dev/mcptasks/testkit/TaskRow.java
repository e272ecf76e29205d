package dev.mcptasks.testkit;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.LeaseMath;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.List;

/**
 * The mutable form of one task row inside {@link InMemoryTaskRepository}; only ever touched under the store's lock,
 * and only after every fence predicate of the write passed, so no write is half-applied.
 */
final class TaskRow {
    final TaskId id;
    final TaskRecord.Definition definition;

    TaskStatus status = TaskStatus.PENDING;
    String statusMessage;
    String resultJson;
    boolean resultTruncated;
    String error;
    String errorCode;
    String inputRequiredJson;
    String remoteTaskId;
    Long remoteTtlMs;
    String protocolVersion;
    WorkerId endpointOwner;
    WorkerId createdBy;
    Instant updatedAt;
    Instant completedAt;
    String inputResponsesJson;
    String requestState;
    String endpointSession;

    Instant nextControlAt;
    Instant lastPolledAt;
    int submitAttemptCount;
    int pollAttemptCount;
    int cancelAttemptCount;
    int consecutiveErrorCount;
    String lastPollError;
    String lastCancelError;
    Instant cancelRequestedAt;
    Instant submitAttemptedAt;

    ClaimPhase leasePhase;
    WorkerId leaseOwner;
    ClaimToken leaseToken;
    Instant leaseExpiresAt;

    NotificationStatus notificationStatus = NotificationStatus.NONE;
    String eventFingerprint;
    String eventPayload;
    long eventVersion;
    long notifiedVersion;
    long dispatchVersion;
    int dispatchAttempt;
    String dispatchEvent;
    int notificationAttemptCount;
    String notificationError;
    Instant nextNotificationAt;
    WorkerId notificationLeaseOwner;
    ClaimToken notificationLeaseToken;
    Instant notificationLeaseExpiresAt;

    /** The claim history (TaskHistory): kept on the row, so it goes with the row and rolls back with it. */
    List<TaskEvent> history = List.of();

    TaskRow(NewTask task, Instant now) {
        this.id = task.id();
        this.definition = new TaskRecord.Definition(task.serverName(), task.toolName(), task.argumentsJson(),
                task.driver(), task.requestedTtlMs(), now, task.principal(), task.trace());
        this.updatedAt = now;
        this.nextControlAt = now;
        if (task.claim() != null) {
            // created claimed for submit (CreateClaim): leased, the first create request recorded as attempted
            this.leasePhase = ClaimPhase.SUBMIT;
            this.leaseOwner = task.claim().owner();
            this.leaseToken = task.claim().token();
            this.leaseExpiresAt = InMemoryStore.expiry(now, task.claim().lease());
            this.submitAttemptCount = 1;
            this.submitAttemptedAt = now;
            this.history = List.of(new TaskEvent(task.id(), now, TaskEvent.Kind.CLAIMED, ClaimPhase.SUBMIT,
                    task.claim().owner(), null, null));
        }
    }

    /** A detached copy of every field: the in-memory transaction's undo record of this row. */
    TaskRow copy() {
        TaskRow copy = new TaskRow(id, definition);
        copy.status = status;
        copy.statusMessage = statusMessage;
        copy.resultJson = resultJson;
        copy.resultTruncated = resultTruncated;
        copy.error = error;
        copy.errorCode = errorCode;
        copy.inputRequiredJson = inputRequiredJson;
        copy.remoteTaskId = remoteTaskId;
        copy.remoteTtlMs = remoteTtlMs;
        copy.protocolVersion = protocolVersion;
        copy.endpointOwner = endpointOwner;
        copy.createdBy = createdBy;
        copy.updatedAt = updatedAt;
        copy.completedAt = completedAt;
        copy.inputResponsesJson = inputResponsesJson;
        copy.requestState = requestState;
        copy.endpointSession = endpointSession;
        copy.nextControlAt = nextControlAt;
        copy.lastPolledAt = lastPolledAt;
        copy.submitAttemptCount = submitAttemptCount;
        copy.pollAttemptCount = pollAttemptCount;
        copy.cancelAttemptCount = cancelAttemptCount;
        copy.consecutiveErrorCount = consecutiveErrorCount;
        copy.lastPollError = lastPollError;
        copy.lastCancelError = lastCancelError;
        copy.cancelRequestedAt = cancelRequestedAt;
        copy.submitAttemptedAt = submitAttemptedAt;
        copy.leasePhase = leasePhase;
        copy.leaseOwner = leaseOwner;
        copy.leaseToken = leaseToken;
        copy.leaseExpiresAt = leaseExpiresAt;
        copy.notificationStatus = notificationStatus;
        copy.eventFingerprint = eventFingerprint;
        copy.eventPayload = eventPayload;
        copy.eventVersion = eventVersion;
        copy.notifiedVersion = notifiedVersion;
        copy.dispatchVersion = dispatchVersion;
        copy.dispatchAttempt = dispatchAttempt;
        copy.dispatchEvent = dispatchEvent;
        copy.notificationAttemptCount = notificationAttemptCount;
        copy.notificationError = notificationError;
        copy.nextNotificationAt = nextNotificationAt;
        copy.notificationLeaseOwner = notificationLeaseOwner;
        copy.notificationLeaseToken = notificationLeaseToken;
        copy.notificationLeaseExpiresAt = notificationLeaseExpiresAt;
        copy.history = history;
        return copy;
    }

    private TaskRow(TaskId id, TaskRecord.Definition definition) {
        this.id = id;
        this.definition = definition;
    }

    /** Whether the control lease is the one of this claim: id, owner, token and phase (the release fence). */
    boolean holds(Claim claim) {
        return claim.taskId().equals(id) && claim.owner().equals(leaseOwner) && claim.token().equals(leaseToken)
                && claim.phase() == leasePhase;
    }

    /** The fence of result writes and renewals: the claim, an unexpired lease and a nonterminal row. */
    boolean holdsLive(Claim claim, Instant now) {
        return holds(claim) && !LeaseMath.isExpired(leaseExpiresAt, now) && !status.isTerminal();
    }

    /** An input round before any remote task: the create request is sent again once answered. */
    boolean awaitsInputBeforeTask() {
        return status == TaskStatus.INPUT_REQUIRED && remoteTaskId == null;
    }

    /** The status part of the submit fence: still to be created (pending or an input round before any task). */
    boolean awaitsSubmit() {
        return status == TaskStatus.PENDING || awaitsInputBeforeTask();
    }

    boolean controlLeaseFree(Instant now) {
        return leaseOwner == null || LeaseMath.isExpired(leaseExpiresAt, now);
    }

    boolean isDue(Instant now) {
        return nextControlAt != null && !nextControlAt.isAfter(now);
    }

    void clearLease() {
        leasePhase = null;
        leaseOwner = null;
        leaseToken = null;
        leaseExpiresAt = null;
    }

    /** Replaces every snapshot field; {@code completed_at} is set when the status is terminal. */
    void storeSnapshot(StoredSnapshot snapshot, Instant now) {
        status = snapshot.status();
        statusMessage = snapshot.statusMessage();
        resultJson = snapshot.resultJson();
        resultTruncated = snapshot.resultTruncated();
        error = snapshot.error();
        errorCode = snapshot.errorCode();
        inputRequiredJson = snapshot.inputRequiredJson();
        updatedAt = now;
        if (status.isTerminal()) {
            completedAt = now;
        }
    }

    /** Records an event unless its fingerprint is already stored (a repeated snapshot raises nothing new). */
    void recordEvent(AttentionEvent event, Instant now) {
        recordEvent(event, null, now);
    }

    /**
     * {@link #recordEvent(AttentionEvent, Instant)}, taking the new event's delivery with {@code take} when its
     * conditions hold ({@link DeliveryTake}): an idle outbox at the version the take expects.
     */
    void recordEvent(AttentionEvent event, DeliveryTake take, Instant now) {
        if (event == null || event.fingerprint().equals(eventFingerprint)) {
            return;
        }
        boolean taken = take != null && eventVersion == take.priorEventVersion()
                && (notificationStatus == NotificationStatus.NONE || notificationStatus == NotificationStatus.DELIVERED);
        eventVersion++;
        eventFingerprint = event.fingerprint();
        eventPayload = event.payloadJson();
        NotificationStatus before = notificationStatus;
        notificationStatus = NotificationRules.afterNewEvent(before);
        if (notificationStatus == NotificationStatus.PENDING && before != NotificationStatus.PENDING) {
            nextNotificationAt = now;
        }
        if (taken) {
            // as a dispatching claim right after this write would leave it: frozen, attempt 1 counted, leased
            notificationStatus = NotificationStatus.DISPATCHED;
            dispatchVersion = eventVersion;
            dispatchEvent = eventPayload;
            dispatchAttempt = 1;
            notificationAttemptCount = 0;
            notificationLeaseOwner = take.owner();
            notificationLeaseToken = take.token();
            notificationLeaseExpiresAt = InMemoryStore.expiry(now, take.lease());
        }
    }

    boolean holdsNotification(NotificationClaim claim) {
        return claim.taskId().equals(id) && claim.owner().equals(notificationLeaseOwner)
                && claim.token().equals(notificationLeaseToken);
    }

    boolean notificationLeaseFree(Instant now) {
        return notificationLeaseOwner == null || LeaseMath.isExpired(notificationLeaseExpiresAt, now);
    }

    void clearNotificationLease() {
        notificationLeaseOwner = null;
        notificationLeaseToken = null;
        notificationLeaseExpiresAt = null;
    }

    /** Ends the frozen delivery (delivered or dead-lettered): a newer version waiting stays pending, due now. */
    void settleDispatch(NotificationStatus next, Instant now) {
        notifiedVersion = dispatchVersion;
        notificationStatus = next;
        if (next == NotificationStatus.PENDING) {
            nextNotificationAt = now;
        }
        clearNotificationLease();
    }

    TaskRecord toRecord() {
        return new TaskRecord(id, definition,
                new TaskRecord.State(status, statusMessage, resultJson, resultTruncated, error, errorCode,
                        inputRequiredJson, remoteTaskId, remoteTtlMs, protocolVersion, endpointOwner, createdBy,
                        updatedAt, completedAt, inputResponsesJson, requestState, endpointSession),
                new TaskRecord.Control(nextControlAt, lastPolledAt, submitAttemptCount, pollAttemptCount,
                        cancelAttemptCount, consecutiveErrorCount, lastPollError, lastCancelError, cancelRequestedAt,
                        submitAttemptedAt),
                leaseOwner == null ? TaskRecord.Lease.NONE
                        : new TaskRecord.Lease(leasePhase, leaseOwner, leaseToken, leaseExpiresAt),
                new TaskRecord.Outbox(notificationStatus, eventFingerprint, eventPayload, eventVersion,
                        notifiedVersion, dispatchVersion, dispatchAttempt, dispatchEvent, notificationAttemptCount,
                        notificationError, nextNotificationAt, notificationLeaseOwner, notificationLeaseToken,
                        notificationLeaseExpiresAt));
    }
}
