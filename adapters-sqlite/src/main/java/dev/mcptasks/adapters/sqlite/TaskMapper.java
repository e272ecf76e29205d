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

    // selectTask (in the XML) is read by hand: SqliteDatabase.readTask, and WriterSession.row on the writer

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

    // fenced control writes (renew, recordSubmitAttempt, applySubmitted and applyOutcome are in the XML only:
    // BatchedWrites runs them as DirectStatements, a single write as a batch of one)

    int recordProgress(@Param("f") Fence fence, @Param("now") long now, @Param("message") String message);

    int releaseAfterFailure(@Param("f") Fence fence, @Param("now") long now, @Param("w") FailureValues values);

    int releaseCancelled(@Param("f") Fence fence);

    int abandonCancel(@Param("f") Fence fence, @Param("now") long now, @Param("reason") String reason,
            @Param("nextControlAt") long nextControlAt);

    int releaseToEndpoint(@Param("f") Fence fence, @Param("endpointOwner") String endpointOwner);

    // notification outbox

    // selectNotifyCandidates, then claimNotify per candidate (in the XML; ClaimScans runs both as DirectStatements);
    // markDispatched and finishNotification in the XML only, run as DirectStatements by BatchedWrites

    int retryNotification(@Param("n") NotifyFence fence, @Param("error") String error, @Param("nextAt") long nextAt,
            @Param("counted") boolean counted);

    int deadLetterNotification(@Param("n") NotifyFence fence, @Param("now") long now, @Param("error") String error);

    int releaseNotification(@Param("n") NotifyFence fence);

    // dead letters

    List<TaskRow> listDeadLetters(@Param("beforeAt") Long beforeAt, @Param("beforeId") String beforeId,
            @Param("limit") int limit);

    int replayDeadLetter(@Param("id") String id, @Param("now") long now);
}
