package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tasks as users and readers see them: creating one, the user's actions on it (cancel, answers) and the reads. None
 * of these is fenced: they take no claim.
 */
public interface TaskRecords {
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
     * outstanding ({@code submit_attempted_at} null; {@link TaskClaims#applySubmitted} clears it when it stores an input round,
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

    /** The task, or empty when no task has that id. */
    Optional<TaskRecord> find(TaskId id);

    /**
     * The tasks of {@code ids} that exist, each once, in no particular order (a missing id is left out): the reads of
     * many rows at once, as a gateway's waiters make them. A store reads them in one statement or on one connection;
     * this default reads them one by one.
     */
    default List<TaskRecord> findAll(Collection<TaskId> ids) {
        List<TaskRecord> found = new ArrayList<>();
        for (TaskId id : new LinkedHashSet<>(ids)) {
            find(id).ifPresent(found::add);
        }
        return found;
    }

    /** A page of tasks, newest (highest id) first. */
    List<TaskRecord> list(TaskQuery query);

    /** Number of tasks per status; every status present, zero included. */
    Map<TaskStatus, Long> countByStatus();

    /** Tasks by status and server, the earliest due time per control phase and the outbox by status (metrics). */
    TaskFigures figures();
}
