package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable task store. Every implementation passes the same {@code TaskRepositoryContract}.
 *
 * <p><b>Time.</b> "now" is the repository's injected {@code Clock} at the moment of the statement, with one
 * exception: worker liveness (heartbeat stamps and every judgement of them) uses the <i>store's</i> clock, the
 * database's own now (the in-memory store's clock), read in the statement that stamps or judges, so workers whose
 * clocks disagree still agree on who is alive. Instants are stored at millisecond precision.
 *
 * <p><b>Claims.</b> A claim scan is one short transaction that never contains a remote call. It picks due rows of one
 * phase ordered by due time then id, at most {@code limit}, and for each sets phase, owner, a fresh token, expiry =
 * now + lease, and bumps that phase's attempt counter. Concurrent scans hand every row to exactly one worker.
 * Eligibility (a lease is <i>free</i> when its owner is null or its expiry is at or before now; <i>due</i> means
 * {@code next_control_at <= now}):
 * <ul>
 *   <li>submit: status pending, or an input round waiting before any task ({@code input_required} with no remote id)
 *       that has answers pending ({@code input_responses} not null); cancel not requested, due, lease free;</li>
 *   <li>poll: status working or input_required, a remote id (a row without one is never polled), cancel not
 *       requested, due, lease free, endpoint rule;</li>
 *   <li>cancel: cancel requested, nonterminal, due, lease free, endpoint rule.</li>
 * </ul>
 * Endpoint rule: {@code endpoint_owner} is null, or is the claiming worker, or is not a live worker (no worker row
 * with {@code last_seen_at >= store now - workerStaleAfter}, judged in the claim statement). Rows in
 * {@code excluded} are never claimed.
 *
 * <p><b>Fences.</b> Every write made for a claim is one conditional UPDATE whose WHERE repeats id, owner, token and
 * phase; result writes ({@link #applyOutcome}, {@link #applySubmitted}, {@link #recordSubmitAttempt}),
 * {@link #recordProgress} and {@link #renew} also require an unexpired lease ({@code lease_expires_at > now}) and a
 * nonterminal row; poll result writes and poll renewals also require that cancel was not requested; submit writes
 * require status pending or an input round before any task ({@code input_required} with no remote id).
 * Releases need id + owner + token + phase only. A fenced method returns true iff it changed the row (affected row
 * count 1); false means the claim is gone and the row is untouched, whole. {@link FencedWriteHook} is called right
 * before each fenced UPDATE.
 *
 * <p><b>Notification events.</b> Writes that carry an {@code AttentionEvent} record it only when its fingerprint
 * differs from the stored {@code event_fingerprint}: then {@code event_version + 1}, fingerprint and payload are
 * stored, the outbox status follows {@code NotificationRules.afterNewEvent}, and {@code next_notification_at} is set
 * to now when the status became pending. A submit or outcome write that carries a {@link DeliveryTake} also takes that
 * event's delivery in the same statement when the take's conditions hold (see there): the outbox becomes dispatched to
 * the take's owner instead of pending.
 */
public interface TaskRepository {

    /**
     * Persists a pending task, due now. Throws {@link DuplicateTaskException} for a used id. A task with a
     * {@linkplain NewTask#claim() claim} is inserted already claimed for submit by it: lease phase submit, the claim's
     * owner and token, expiry now + its lease, {@code submit_attempt_count} 1 and {@code submit_attempted_at} now; the
     * returned row carries that lease, and every fenced write of the claim applies to it as to a scanned claim.
     */
    TaskRecord create(NewTask task);

    /**
     * Persists a user's cancel request. If nothing can exist remotely, it becomes {@code cancelled} at once: the row is
     * pending or an input round before any task ({@code input_required}, no remote id) and no create request is
     * outstanding ({@code submit_attempted_at} null; {@link #applySubmitted} clears it when it stores an input round,
     * so a waiting round, answered or not, qualifies until its create request is sent again). Then the pending
     * answers and request state are cleared, the snapshot fields are replaced by
     * {@code StoredSnapshot.cancelled(null)}, {@code cancel_requested_at}, {@code updated_at} and {@code completed_at}
     * are set to now, {@code next_control_at} becomes null, the event of that snapshot is recorded, the lease cleared.
     * Otherwise, the first request sets {@code cancel_requested_at} (once, never overwritten), makes the row due now,
     * and clears a <i>poll</i> lease; a repeat changes nothing and never clears a cancel lease.
     */
    CancelRequestOutcome requestCancel(TaskId id);

    /**
     * Stores a user's answer to one input request of a task in {@code input_required}: {@code key} is added to the
     * pending {@code input_responses} object with {@code responseJson} as its value (an answer already pending for
     * the key stands: {@link AnswerOutcome#DUPLICATE}, row unchanged), {@code next_control_at} becomes now so a
     * control claim (poll; submit for an input round before any task) delivers it, {@code updated_at} now. A held
     * lease is left alone: its holder's write does not clear answers it did not deliver. Not fenced (a user action,
     * like {@link #requestCancel}). Whether the key is one the server asked for is the caller's check; the server
     * ignores unknown keys.
     *
     * <p>The stored object is canonical JSON ({@code StrictJson.write}: no insignificant whitespace, keys in Java
     * string order, the answer canonicalized too; the same text on every store), and
     * {@link OutcomeWrite#deliveredInputResponsesJson} is compared with it as text: a claim passes back exactly the
     * {@code inputResponsesJson} it read. Concurrent answers to different keys are all kept (the merge is a compare-and-set on the stored
     * object, retried when another answer or write changed it). A {@code responseJson} that is not JSON throws
     * {@link IllegalArgumentException} and changes nothing.
     */
    AnswerOutcome answerInput(TaskId id, String key, String responseJson);

    /** Claims due rows of one control phase (see class comment). */
    List<ClaimedTask> claimControl(ControlClaimRequest request);

    /**
     * Extends the claim to max(stored expiry, now + lease). Fence: id, owner, token, phase, unexpired, nonterminal,
     * and for poll claims cancel not requested. Changes nothing else: no timestamp, no counter.
     */
    boolean renew(Claim claim, Duration lease);

    /**
     * Records that the create request is about to be sent ({@code submit_attempted_at} = now), so a worker that dies
     * after sending is detected. Fence: submit phase, id, owner, token, unexpired, status pending or an input round
     * before any task, cancel not requested.
     */
    boolean recordSubmitAttempt(Claim claim);

    /**
     * Stores the created remote task: remote id, status and snapshot fields, ttl, protocol version, endpoint owner,
     * endpoint session (the write's, null included), creator ({@code created_by} = the claim's owner), next due time,
     * completed_at when terminal, {@code consecutive_error_count} 0, {@code updated_at} now, event; clears the
     * lease. Fence: submit phase, id, owner, token, unexpired, status pending or an input round before any
     * task (a cancel request made
     * meanwhile does not block it: the remote id must be kept so the task can be cancelled; the row is then due now
     * instead of at the write's next due time when the snapshot is nonterminal, so the cancel is not delayed). Throws
     * {@link DuplicateTaskException} if the server already has a row with that remote id.
     *
     * <p>Without a remote id the write stores what the create request answered instead of a task, and
     * {@code created_by} stays null: a terminal snapshot (the call finished at once: completed_at now), or an input
     * round ({@code input_required}, the input requests, the write's {@code requestState}; {@code next_control_at}
     * null, so it waits for {@link #answerInput}, or now when a cancel was requested meanwhile, so the cancel claim
     * ends it; {@code submit_attempted_at} cleared, because the outcome of that create request is known: nothing was
     * created, so sending it again is no duplicate submission). The fence accepts such an input round as it accepts a
     * pending row. Every write, with or without a remote id, stores the protocol version, replaces
     * {@code request_state} with the write's (null for a created task) and clears the pending answers: they were
     * sent with this create request, and answers added while it was in flight answered the round it ended.
     */
    boolean applySubmitted(Claim claim, SubmitWrite write);

    /**
     * Stores a snapshot: status, message, result, truncation flag, error, error code, input request (all replaced),
     * ttl if given, {@code next_control_at}, {@code updated_at} now, completed_at now when terminal,
     * {@code last_polled_at} now for poll claims, error counter reset to 0 and the phase's last error cleared, event;
     * pending answers cleared when they still equal the write's {@code deliveredInputResponsesJson} (compared as
     * stored text, in the same fenced UPDATE); when they differ (answers were added while this claim delivered the
     * ones it read) they stay pending and {@code next_control_at} becomes now instead of the write's, so they are
     * delivered without waiting; a null {@code deliveredInputResponsesJson} leaves them and the write's due time
     * untouched (an answer that arrives during a claim that delivered nothing waits for that due time). A
     * terminal snapshot clears pending answers and {@code request_state} whatever was delivered: nothing can deliver
     * them any more. Clears the lease. Fence: id, owner, token, phase, unexpired, nonterminal; poll: cancel not
     * requested; submit: status pending or an input round before any task.
     */
    boolean applyOutcome(Claim claim, OutcomeWrite write);

    /**
     * Stores a call's progress, reported while the claim runs it, as the task's status message: sets
     * {@code status_message} = {@code statusMessage} (capped at {@code SnapshotNormalizer.MAX_ERROR_CHARS} like
     * every stored status message) and {@code updated_at} = now, nothing else. The lease stays (the claim goes on),
     * and no event is recorded: progress belongs to a running call, whose snapshot ({@code pending}, {@code working})
     * raises no notification on the poll path either, and a frequent write must not feed the outbox. Fence: id,
     * owner, token, phase (any phase: the claim that runs the call), unexpired, nonterminal; a cancel request does not
     * refuse it (the call runs until the cancel ends it, and the message is harmless meanwhile). Every write that
     * ends the claim clears its lease, so progress that arrives after the call's result is refused and never
     * overwrites the result's message. A null {@code statusMessage} throws {@link NullPointerException} and changes
     * nothing.
     */
    boolean recordProgress(Claim claim, String statusMessage);

    /**
     * Failure release: {@code next_control_at} from the write, error recorded (poll and submit:
     * {@code last_poll_error}; cancel: {@code last_cancel_error}), {@code consecutive_error_count + 1},
     * {@code updated_at} = failedAt, {@code submit_attempted_at} cleared if asked, degraded event, lease cleared.
     * Fence: id, owner, token, phase.
     */
    boolean releaseAfterFailure(Claim claim, FailureWrite write);

    /**
     * Cancellation release (shutdown, ownership loss, drain): clears the lease only; status, counters, errors and
     * due time stay, so the row is due again at once. Fence: id, owner, token, phase.
     */
    boolean releaseCancelled(Claim claim);

    /**
     * Ends the cancel phase without a remote cancel, because the server cannot cancel at all: the row goes back to
     * the poll phase so it is tracked to its real end. Sets {@code last_cancel_error} = {@code reason} (capped),
     * clears {@code cancel_requested_at} (the reason says when the request was made and why it was not sent),
     * {@code next_control_at} = {@code nextControlAt}, {@code updated_at} now, clears the lease; status, snapshot,
     * counters and {@code last_poll_error} stay. Fence: cancel phase, id, owner, token, unexpired, nonterminal.
     */
    boolean abandonCancel(Claim claim, String reason, java.time.Instant nextControlAt);

    /**
     * Cancellation release that also hands the row to a process-local endpoint: clears the lease and sets
     * {@code endpoint_owner}, nothing else. Used when this worker cannot see a task that another, possibly live,
     * worker's endpoint created: from then on only that worker claims its polls and cancels while it is alive.
     * Fence: id, owner, token, phase.
     */
    boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner);

    /**
     * Claims deliveries: rows with {@code event_version > notified_version}, outbox status pending, claimed,
     * dispatched or retry, {@code next_notification_at <= now}, notification lease free. Pending and retry rows
     * freeze the newest event ({@code dispatch_version = event_version}, {@code dispatch_event = event_payload}), and
     * when that moves to a newer version the attempt budget restarts ({@code dispatch_attempt} and
     * {@code notification_attempt_count} 0); claimed and dispatched rows (an expired delivery) keep their frozen
     * event. All become claimed with a fresh notification lease. Rows are taken ordered by
     * {@code next_notification_at} then id, at most {@code limit}.
     */
    List<NotificationClaim> claimNotifications(NotificationClaimRequest request);

    /** Marks the frozen event as being sent: status dispatched, {@code dispatch_attempt + 1}. Fence: notification owner, token, status claimed, unexpired. */
    boolean markDispatched(NotificationClaim claim);

    /**
     * {@link #claimNotifications} and {@link #markDispatched} of every claim as one write: each delivery comes back
     * already dispatched (status dispatched, {@code dispatch_attempt} equal to the claim's attempt), ready for its
     * sink, so a delivery costs the store one write fewer. A worker that dies between this write and its sink call
     * has counted an attempt it never made, as one that dies between the mark and the call always could: the next
     * claim keeps the frozen event and only moves the idempotency key on. The default runs the two in sequence and
     * releases a claim whose mark was refused.
     */
    default List<NotificationClaim> claimNotificationsDispatched(NotificationClaimRequest request) {
        List<NotificationClaim> claims = claimNotifications(request);
        List<Boolean> marked = markAllDispatched(claims);
        List<NotificationClaim> dispatched = new ArrayList<>(claims.size());
        for (int i = 0; i < claims.size(); i++) {
            if (marked.get(i)) {
                dispatched.add(claims.get(i));
            } else {
                releaseNotification(claims.get(i));
            }
        }
        return dispatched;
    }

    /**
     * Delivered: {@code notified_version = dispatch_version}; status per {@code NotificationRules.afterDelivered}
     * (a newer version stays pending, due now); error cleared; lease cleared. Fence: owner, token, status dispatched.
     */
    boolean finishNotification(NotificationClaim claim);

    /**
     * Delivery failed: status retry, error, {@code next_notification_at}, {@code notification_attempt_count + 1}
     * when counted (a busy sink is not counted), lease cleared. Fence: owner, token, status claimed or dispatched.
     */
    boolean retryNotification(NotificationClaim claim, String error, java.time.Instant nextAt, boolean counted);

    /**
     * Gives up on the frozen version: {@code notified_version = dispatch_version}; status per
     * {@code NotificationRules.afterDeadLetter} (a newer version stays pending, due now); error; lease cleared. A row
     * that becomes {@code dead_letter} gets {@code next_notification_at} = now: nothing is due in that state, so the
     * column records when the version died ({@link #listDeadLetters} orders by it). Fence: owner, token, status
     * claimed or dispatched.
     */
    boolean deadLetterNotification(NotificationClaim claim, String error);

    /**
     * Cancellation release of a delivery: clears the notification lease; a claimed row goes back to pending, a
     * dispatched one stays dispatched (its frozen event may have reached the sink). Fence: owner, token.
     */
    boolean releaseNotification(NotificationClaim claim);

    /**
     * A page of dead letters: rows whose outbox status is {@code dead_letter}, newest first (by
     * {@code next_notification_at}, the time the version died, then id, both descending), at most the query's limit,
     * after its cursor. An operator's read: no store keeps an index for it (an index on the outbox status would cost
     * every delivery write its in-place update on PostgreSQL), so it scans the table.
     */
    List<TaskRecord> listDeadLetters(DeadLetterQuery query);

    /**
     * Makes a dead letter deliverable again: one conditional UPDATE, only while the outbox status is
     * {@code dead_letter} (a user action, not fenced by a lease: a dead letter has none, and whatever moved the row
     * out of that state since it was read, a concurrent replay or a newer event, wins and the replay changes nothing:
     * {@link ReplayOutcome#NOT_DEAD}). It sets status pending, {@code notified_version = dispatch_version - 1} (the
     * version that died is owed again), {@code notification_attempt_count} 0 (a fresh budget of counted failures),
     * {@code next_notification_at} now. It keeps {@code dispatch_attempt}, so the replay's sends carry idempotency
     * keys no earlier send had (a receiver that deduplicates on them does not drop the replay), and keeps the error,
     * so the reason it died shows until the next attempt replaces it (delivery clears it). The next claim freezes
     * the row's newest event, as it does for any pending row: the same version that died (a dead letter's event
     * version is its dispatch version), unless a newer event was recorded between the replay and that claim, which
     * is then delivered instead with its own fresh budget (the older version is superseded, as it would be by a
     * retry). A newer event recorded <i>before</i> the replay has already made the row pending
     * ({@code NotificationRules.afterNewEvent}), so that newer version is delivered without any replay, and the
     * replay answers {@link ReplayOutcome#NOT_DEAD}. Signals work arrival like {@link #requestCancel}.
     */
    ReplayOutcome replayDeadLetter(TaskId id);

    // ---- Batched fenced writes -------------------------------------------------------------------------------
    //
    // Each batch method equals calling its single method for every element, in order, and returns each element's
    // own outcome in that order; a store runs them as one statement where it can (the reason they exist: a worker's
    // group commit hands over the writes of many claims at once). Every element keeps its own fence: a refused element
    // changes nothing and does not spoil the others. The elements of one call are of distinct rows (callers ensure
    // it, so a store may match outcomes by row). {@link FencedWriteHook} is called for every element before the
    // statement. Meant to run inside {@link #inOneTransaction}; when a batch method throws there, callers run the
    // elements again, each alone. The defaults loop over the single methods.

    /** {@link #renew} of every claim, with the same lease. */
    default List<Boolean> renewAll(List<Claim> claims, Duration lease) {
        return claims.stream().map(claim -> renew(claim, lease)).toList();
    }

    /** {@link #recordSubmitAttempt} of every claim. */
    default List<Boolean> recordSubmitAttempts(List<Claim> claims) {
        return claims.stream().map(this::recordSubmitAttempt).toList();
    }

    /**
     * {@link #applySubmitted} of every element. Throws {@link DuplicateTaskException} when one element would (the
     * caller then runs each alone and learns which).
     */
    default List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return writes.stream().map(write -> applySubmitted(write.claim(), write.write())).toList();
    }

    /** {@link #applyOutcome} of every element. */
    default List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return writes.stream().map(write -> applyOutcome(write.claim(), write.write())).toList();
    }

    /** {@link #markDispatched} of every delivery. */
    default List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        return claims.stream().map(this::markDispatched).toList();
    }

    /** {@link #finishNotification} of every delivery. */
    default List<Boolean> finishNotifications(List<NotificationClaim> claims) {
        return claims.stream().map(this::finishNotification).toList();
    }

    /**
     * Runs {@code work} as one store transaction (group commit): every write this repository makes on the calling
     * thread while {@code work} runs commits together when it returns, and none of them is kept when it throws (the
     * exception propagates as the single call would throw it). Each write inside keeps its own fence and returns its
     * own outcome, exactly as it would alone; a refused write inside changes nothing and does not spoil the others.
     * Inside, call only the fenced writes and releases ({@link #renew}, {@link #recordSubmitAttempt},
     * {@link #recordProgress}, {@link #applySubmitted}, {@link #applyOutcome}, {@link #releaseAfterFailure}, {@link #releaseCancelled},
     * {@link #abandonCancel}, {@link #releaseToEndpoint}, {@link #markDispatched}, {@link #finishNotification},
     * {@link #retryNotification}, {@link #deadLetterNotification}, {@link #releaseNotification}, and their batched
     * forms such as {@link #renewAll}), or {@link #create} with the same store's audit append (a submit and its
     * record commit together; the work-arrival signal goes out at that commit); a call made inside
     * another {@code inOneTransaction} on the same thread joins the outer transaction. A write that throws inside may
     * leave the transaction unusable (PostgreSQL aborts it): callers that want the other writes kept run them again,
     * each alone. {@link FencedWriteHook} runs inside the transaction.
     *
     * <p>The default supports nothing and throws {@link UnsupportedOperationException} before running {@code work}:
     * a worker on such a store commits each write alone.
     */
    default <T> T inOneTransaction(java.util.function.Supplier<T> work) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot group writes in one transaction");
    }

    /**
     * Registers {@code listener} to be called when work may have become due in the store without a clock reaching a
     * due time: a task created, a cancel requested, an answer stored, a dead letter replayed. Writes of this process
     * signal right after they commit; writes of other processes as soon as the store can tell (PostgreSQL
     * {@code LISTEN/NOTIFY}; SQLite a cheap check of the database's data version every few milliseconds). Calls may
     * be spurious and are coalesced; the listener runs on a store thread, so it must return at once and not throw.
     * Work due by time alone (a poll's {@code next_control_at}) is not signalled: the worker's tick finds it. The
     * default signals nothing.
     */
    default WorkSubscription onWorkArrival(Runnable listener) {
        return WorkSubscription.NONE;
    }

    /**
     * Registers {@code listener} to be told when another process may have committed changes that readers wait for
     * (a result, a status): {@link TaskChangeListener#changedSomewhere} as soon as the store can tell (SQLite: the
     * database's data version, checked every few milliseconds). Changes made by this process's own worker are
     * announced by the worker itself, with their task ids, not here. The default tells nothing: readers fall back
     * to polling.
     */
    default WorkSubscription onForeignChange(TaskChangeListener listener) {
        return WorkSubscription.NONE;
    }

    Optional<TaskRecord> find(TaskId id);

    /** A page of tasks, newest (highest id) first. */
    List<TaskRecord> list(TaskQuery query);

    /** Number of tasks per status; every status present, zero included. */
    Map<TaskStatus, Long> countByStatus();

    /** Tasks by status and server, the earliest due time per control phase and the outbox by status (metrics). */
    TaskFigures figures();

    /**
     * Registers the worker or refreshes its {@code last_seen_at} to the <i>store's</i> now (host, pid, start time stay
     * as first given). The worker's own clock never stamps a heartbeat.
     */
    void heartbeat(WorkerInfo worker);

    /**
     * Whether the worker is alive: it has a row whose {@code last_seen_at} is at or after the store's now minus
     * {@code staleAfter}. False for a worker that deregistered or never registered.
     */
    boolean isWorkerAlive(WorkerId worker, Duration staleAfter);

    /** Removes a worker that stopped cleanly. */
    void removeWorker(WorkerId worker);

    /** All registered workers, oldest ({@code started_at}, then id) first. */
    List<WorkerRecord> workers();
}
