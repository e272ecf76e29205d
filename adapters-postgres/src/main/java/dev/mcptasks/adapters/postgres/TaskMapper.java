package dev.mcptasks.adapters.postgres;

import dev.mcptasks.adapters.postgres.SqlParams.Claims;
import dev.mcptasks.adapters.postgres.SqlParams.Deliveries;
import dev.mcptasks.adapters.postgres.SqlParams.Event;
import dev.mcptasks.adapters.postgres.SqlParams.Events;
import dev.mcptasks.adapters.postgres.SqlParams.Fence;
import dev.mcptasks.adapters.postgres.SqlParams.OutboxFence;
import dev.mcptasks.adapters.postgres.SqlParams.Outcomes;
import dev.mcptasks.adapters.postgres.SqlParams.Snapshot;
import dev.mcptasks.adapters.postgres.SqlParams.Snapshots;
import dev.mcptasks.adapters.postgres.SqlParams.Submits;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** The MyBatis mapper of the task store; the SQL lives in {@code TaskMapper.xml} beside this interface. */
interface TaskMapper {

    int insertTask(@Param("id") String id, @Param("serverName") String serverName,
            @Param("toolName") String toolName, @Param("arguments") String arguments, @Param("driver") String driver,
            @Param("requestedTtlMs") Long requestedTtlMs, @Param("now") Instant now,
            @Param("principal") String principal, @Param("traceparent") String traceparent,
            @Param("tracestate") String tracestate, @Param("claim") CreatedLease claim);

    TaskRow selectTask(@Param("id") String id);

    List<TaskRow> selectTasks(@Param("ids") String[] ids);

    /** Sends the work-arrival notification; delivered when the calling transaction commits. */
    String notifyWork();

    TaskRow selectTaskForUpdate(@Param("id") String id);

    List<TaskRow> listTasks(@Param("status") String status, @Param("serverName") String serverName,
            @Param("before") String before, @Param("limit") int limit, @Param("principal") String principal);

    List<StatusCount> countByStatus();

    List<java.util.Map<String, Object>> countByStatusAndServer();

    List<java.util.Map<String, Object>> earliestDueByPhase();

    List<java.util.Map<String, Object>> countOutbox();

    List<TaskRow> claimControl(@Param("phase") String phase, @Param("worker") String worker,
            @Param("now") Instant now, @Param("expiresAt") Instant expiresAt, @Param("staleAfterMillis") long staleAfterMillis,
            @Param("excluded") String[] excluded, @Param("atShare") String[] atShare, @Param("tokens") String[] tokens,
            @Param("limit") int limit);

    int renew(@Param("f") Fence fence, @Param("expiresAt") Instant expiresAt);

    int recordSubmitAttempt(@Param("f") Fence fence, @Param("now") Instant now);

    int recordProgress(@Param("f") Fence fence, @Param("now") Instant now, @Param("message") String message);

    int applySubmitted(@Param("f") Fence fence, @Param("now") Instant now, @Param("remoteTaskId") String remoteTaskId,
            @Param("s") Snapshot snapshot, @Param("remoteTtlMs") Long remoteTtlMs,
            @Param("protocolVersion") String protocolVersion, @Param("endpointOwner") String endpointOwner,
            @Param("nextControlAt") Instant nextControlAt, @Param("e") Event event,
            @Param("inputRound") boolean inputRound, @Param("requestState") String requestState,
            @Param("endpointSession") String endpointSession);

    int applyOutcome(@Param("f") Fence fence, @Param("now") Instant now, @Param("s") Snapshot snapshot,
            @Param("remoteTtlMs") Long remoteTtlMs, @Param("nextControlAt") Instant nextControlAt,
            @Param("e") Event event, @Param("delivered") String deliveredInputResponses);

    // Batched fenced writes: each returns the ids of the rows it changed.

    List<String> renewAll(@Param("k") Claims claims, @Param("now") Instant now, @Param("expiresAt") Instant expiresAt);

    List<String> recordSubmitAttempts(@Param("k") Claims claims, @Param("now") Instant now);

    List<String> applySubmittedAll(@Param("k") Claims claims, @Param("b") Submits submits,
            @Param("s") Snapshots snapshots, @Param("e") Events events, @Param("now") Instant now);

    List<String> applyOutcomes(@Param("k") Claims claims, @Param("b") Outcomes outcomes,
            @Param("s") Snapshots snapshots, @Param("e") Events events, @Param("now") Instant now);

    List<String> markAllDispatched(@Param("k") Deliveries deliveries, @Param("now") Instant now);

    List<String> finishNotifications(@Param("k") Deliveries deliveries, @Param("now") Instant now);

    int releaseAfterFailure(@Param("f") Fence fence, @Param("now") Instant now, @Param("error") String error,
            @Param("failedAt") Instant failedAt, @Param("nextControlAt") Instant nextControlAt,
            @Param("clearSubmitAttempt") boolean clearSubmitAttempt, @Param("e") Event event);

    int releaseCancelled(@Param("f") Fence fence);

    int abandonCancel(@Param("f") Fence fence, @Param("now") Instant now, @Param("reason") String reason,
            @Param("nextControlAt") Instant nextControlAt);

    int releaseToEndpoint(@Param("f") Fence fence, @Param("endpointOwner") String endpointOwner);

    int cancelLocally(@Param("id") String id, @Param("now") Instant now, @Param("s") Snapshot snapshot,
            @Param("e") Event event);

    int markCancelRequested(@Param("id") String id, @Param("now") Instant now);

    int storeAnswers(@Param("id") String id, @Param("now") Instant now, @Param("previous") String previous,
            @Param("answers") String answers);

    List<DeliveryRow> claimNotifications(@Param("worker") String worker, @Param("now") Instant now,
            @Param("expiresAt") Instant expiresAt, @Param("tokens") String[] tokens, @Param("limit") int limit);

    /** {@link #claimNotifications} leaving each delivery dispatched, its attempt counted. */
    List<DeliveryRow> claimNotificationsDispatched(@Param("worker") String worker, @Param("now") Instant now,
            @Param("expiresAt") Instant expiresAt, @Param("tokens") String[] tokens, @Param("limit") int limit);

    int markDispatched(@Param("f") OutboxFence fence);

    /** Ends a delivery as {@code settled} ({@code delivered} or {@code dead_letter}). */
    int settleNotification(@Param("f") OutboxFence fence, @Param("settled") String settled,
            @Param("error") String error);

    int retryNotification(@Param("f") OutboxFence fence, @Param("error") String error, @Param("nextAt") Instant nextAt,
            @Param("increment") int increment);

    int releaseNotification(@Param("f") OutboxFence fence);

    List<TaskRow> listDeadLetters(@Param("beforeAt") Instant beforeAt, @Param("beforeId") String beforeId,
            @Param("limit") int limit);

    /** {@code replayed} (with the work-arrival notification sent), {@code not_dead} or {@code not_found}. */
    String replayDeadLetter(@Param("id") String id, @Param("now") Instant now);

    int upsertWorker(@Param("id") String id, @Param("host") String host, @Param("pid") long pid,
            @Param("startedAt") Instant startedAt);

    boolean isWorkerAlive(@Param("id") String id, @Param("staleAfterMillis") long staleAfterMillis);

    int deleteWorker(@Param("id") String id);

    List<WorkerRow> selectWorkers();
}
