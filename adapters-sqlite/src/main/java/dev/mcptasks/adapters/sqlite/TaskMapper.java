package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.adapters.sqlite.SqlParams.ClaimScan;
import dev.mcptasks.adapters.sqlite.SqlParams.FailureValues;
import dev.mcptasks.adapters.sqlite.SqlParams.Fence;
import dev.mcptasks.adapters.sqlite.SqlParams.NewRow;
import dev.mcptasks.adapters.sqlite.SqlParams.NotifyFence;
import dev.mcptasks.adapters.sqlite.SqlParams.SnapshotValues;
import dev.mcptasks.adapters.sqlite.SqlParams.TaskFilter;
import dev.mcptasks.adapters.sqlite.SqlParams.WorkerValues;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.annotations.Param;

/**
 * The SQL of the SQLite repository ({@code TaskMapper.xml} beside it). Every update returns its affected-row count:
 * the caller decides what 0 means.
 */
interface TaskMapper {
    int insertTask(NewRow row);

    TaskRow selectTask(@Param("id") String id);

    List<TaskRow> listTasks(TaskFilter filter);

    List<Map<String, Object>> countByStatus();

    List<Map<String, Object>> countByStatusAndServer();

    List<Map<String, Object>> earliestDueByPhase();

    List<Map<String, Object>> countOutbox();

    int upsertWorker(WorkerValues worker);

    int deleteWorker(@Param("id") String id);

    boolean isWorkerAlive(@Param("id") String id, @Param("staleAfterMillis") long staleAfterMillis);

    List<Map<String, Object>> selectWorkers();

    // control claims: candidates (id, lease_owner, lease_phase), then a conditional update per candidate repeating
    // every predicate (selectSubmitCandidates, selectPollCandidates, selectCancelCandidates, claimSubmit, claimPoll
    // and claimCancel in the XML; ClaimScans runs them as DirectStatements)

    /** selectSubmitCandidates leaving out the rows of principals at their share (a rare, dynamic one). */
    List<Map<String, Object>> selectSubmitCandidatesSharing(@Param("s") ClaimScan scan,
            @Param("atShare") java.util.Collection<String> atShare);

    // cancel requests

    int markCancelRequested(@Param("id") String id, @Param("now") long now);

    int cancelLocally(@Param("id") String id, @Param("now") long now, @Param("w") SnapshotValues values);

    // answers

    int storeAnswers(@Param("id") String id, @Param("now") long now, @Param("previous") String previous,
            @Param("answers") String answers);

    // fenced control writes

    int renew(@Param("f") Fence fence, @Param("now") long now, @Param("expiresAt") long expiresAt);

    int recordSubmitAttempt(@Param("f") Fence fence, @Param("now") long now);

    int recordProgress(@Param("f") Fence fence, @Param("now") long now, @Param("message") String message);

    int applySubmitted(@Param("f") Fence fence, @Param("now") long now, @Param("w") SnapshotValues values,
            @Param("createdBy") String createdBy, @Param("inputRound") boolean inputRound,
            @Param("requestState") String requestState);

    int applyOutcome(@Param("f") Fence fence, @Param("now") long now, @Param("w") SnapshotValues values,
            @Param("delivered") String deliveredInputResponses);

    int releaseAfterFailure(@Param("f") Fence fence, @Param("now") long now, @Param("w") FailureValues values);

    int releaseCancelled(@Param("f") Fence fence);

    int abandonCancel(@Param("f") Fence fence, @Param("now") long now, @Param("reason") String reason,
            @Param("nextControlAt") long nextControlAt);

    int releaseToEndpoint(@Param("f") Fence fence, @Param("endpointOwner") String endpointOwner);

    // notification outbox

    // selectNotifyCandidates, then claimNotify per candidate (in the XML; ClaimScans runs both as DirectStatements)

    int markDispatched(@Param("n") NotifyFence fence, @Param("now") long now);

    int finishNotification(@Param("n") NotifyFence fence, @Param("now") long now);

    int retryNotification(@Param("n") NotifyFence fence, @Param("error") String error, @Param("nextAt") long nextAt,
            @Param("counted") boolean counted);

    int deadLetterNotification(@Param("n") NotifyFence fence, @Param("now") long now, @Param("error") String error);

    int releaseNotification(@Param("n") NotifyFence fence);

    // dead letters

    List<TaskRow> listDeadLetters(@Param("beforeAt") Long beforeAt, @Param("beforeId") String beforeId,
            @Param("limit") int limit);

    int replayDeadLetter(@Param("id") String id, @Param("now") long now);
}
