package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.WorkerId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The worker's role on task rows: claim scans and the fenced writes and releases made for a claim. The single writes
 * and their batched forms are one role, so a decorator that watches a write sees both.
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
 * {@code excluded} are never claimed, and a submit scan leaves out the rows of the principals in {@code atShare}.
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
 * <p>Writes that carry an {@code AttentionEvent} record it as {@link NotificationOutbox} describes, in the same
 * statement.
 */
public interface TaskClaims {
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
     * null, so it waits for {@link TaskRecords#answerInput}, or now when a cancel was requested meanwhile, so the cancel claim
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
    boolean abandonCancel(Claim claim, String reason, Instant nextControlAt);

    /**
     * Cancellation release that also hands the row to a process-local endpoint: clears the lease and sets
     * {@code endpoint_owner}, nothing else. Used when this worker cannot see a task that another, possibly live,
     * worker's endpoint created: from then on only that worker claims its polls and cancels while it is alive.
     * Fence: id, owner, token, phase.
     */
    boolean releaseToEndpoint(Claim claim, WorkerId endpointOwner);

    // ---- Batched fenced writes -------------------------------------------------------------------------------
    //
    // Each batch method equals calling its single method for every element, in order, and returns each element's
    // own outcome in that order; a store runs them as one statement where it can (the reason they exist: a worker's
    // group commit hands over the writes of many claims at once). Every element keeps its own fence: a refused element
    // changes nothing and does not spoil the others. The elements of one call are of distinct rows (callers ensure
    // it, so a store may match outcomes by row). {@link FencedWriteHook} is called for every element before the
    // statement. Meant to run inside {@link StoreScope#inOneTransaction}; when a batch method throws there, callers run the
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
}
