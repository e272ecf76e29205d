package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.adapters.sqlite.SqlParams.ClaimScan;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.TaskEvent;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Control and notification claim scans. Each is one writer transaction begun with {@code BEGIN IMMEDIATE}: the
 * candidates are read with the write lock already held, so no other connection (in this process or another) can
 * claim them between the read and the updates. Each candidate is still claimed by an UPDATE that repeats every
 * eligibility predicate, and only rows that UPDATE actually changed are returned, each read back by primary key
 * right after its claim (mapped by hand: {@link WriterSession#row}).
 *
 * <p>A control scan first reads its candidates on a reader connection, without the write lock: most scans find
 * nothing due (a pass scans every phase; another process's commit wakes every worker), and an empty scan then never
 * queues behind, or holds up, the writes of calls in flight. Nothing is missed by it: a row that becomes due after
 * that read was committed after it, and its commit asks for another pass (or the next tick finds it).
 */
final class ClaimScans {
    private final SqliteDatabase database;
    private final Clock clock;
    private final IdGenerator ids;
    private final DirectUpdate claimSubmit;
    private final DirectUpdate claimPoll;
    private final DirectUpdate claimCancel;
    private final DirectUpdate claimNotify;
    private final DirectUpdate claimNotifyDispatched;

    ClaimScans(SqliteDatabase database, Clock clock, IdGenerator ids) {
        this.database = database;
        this.clock = clock;
        this.ids = ids;
        this.claimSubmit = claimUpdate(database, "claimSubmit");
        this.claimPoll = claimUpdate(database, "claimPoll");
        this.claimCancel = claimUpdate(database, "claimCancel");
        this.claimNotify = claimUpdate(database, "claimNotify");
        this.claimNotifyDispatched = claimUpdate(database, "claimNotifyDispatched");
    }

    /** A per-candidate claim UPDATE, run by plain JDBC like the batched writes (MyBatis per row was a third of it). */
    private static DirectUpdate claimUpdate(SqliteDatabase database, String statement) {
        return DirectUpdate.of(database.configuration(), statement, DirectUpdate.Param.record("s", ClaimScan.class),
                DirectUpdate.Param.value("id"), DirectUpdate.Param.value("token"));
    }

    List<ClaimedTask> claimControl(ControlClaimRequest request) {
        if (request.limit() == 0) {
            return List.of();
        }
        Set<String> excluded = new HashSet<>();
        request.excluded().forEach(id -> excluded.add(id.value()));
        if (!anyDue(request, excluded)) {
            return List.of();
        }
        return database.write("claim " + request.phase().wireName() + " rows", session -> {
            ClaimScan scan = scan(request, excluded.size());
            Instant expiresAt = Instant.ofEpochMilli(scan.expiresAt());
            List<Map<String, Object>> candidates = candidates(session.mapper(), request, scan);
            DirectUpdate claim = switch (request.phase()) {
                case SUBMIT -> claimSubmit;
                case POLL -> claimPoll;
                default -> claimCancel;
            };
            List<ClaimedTask> claimed = new ArrayList<>();
            List<TaskEvent> events = new ArrayList<>();
            for (Map<String, Object> candidate : candidates) {
                String id = (String) candidate.get("id");
                if (claimed.size() == request.limit() || excluded.contains(id)) {
                    continue;
                }
                // read in the same BEGIN IMMEDIATE transaction: releases clear the owner, so an owner left on a due,
                // free row is the expired claim of a dead or stalled worker (a recovery)
                ClaimPhase expired = candidate.get("lease_owner") == null ? null
                        : ClaimPhase.fromWire(String.valueOf(candidate.get("lease_phase")));
                ClaimToken token = ids.newClaimToken();
                if (claimed(session, claim, scan, id, token)) {
                    Claim grant = new Claim(TaskId.of(id), request.phase(), request.worker(), token, expiresAt);
                    ClaimedTask task = new ClaimedTask(grant, session.row(id).toRecord(), expired);
                    claimed.add(task);
                    if (TaskEvent.recorded(request.phase(), task.recovered())) {
                        events.add(TaskEvent.of(Instant.ofEpochMilli(scan.now()), task,
                                expired == null ? null : WorkerId.of(String.valueOf(candidate.get("lease_owner")))));
                    }
                }
            }
            // the claims' history, in the claim's transaction: one batch per scan
            SqliteTaskHistory.append(session, events, database.path());
            return claimed;
        });
    }

    /** Whether a reader sees any row this scan could claim, besides the excluded ones (no write lock taken). */
    private boolean anyDue(ControlClaimRequest request, Set<String> excluded) {
        ClaimScan scan = scan(request, excluded.size());
        List<Map<String, Object>> candidates = database.read("look for due " + request.phase().wireName() + " rows",
                mapper -> candidates(mapper, request, scan));
        return candidates.stream().anyMatch(candidate -> !excluded.contains((String) candidate.get("id")));
    }

    private ClaimScan scan(ControlClaimRequest request, int excluded) {
        Instant now = Instant.ofEpochMilli(clock.now().toEpochMilli());
        Instant expiresAt = now.plusMillis(request.lease().toMillis());
        // the statement is static (prepared once): ask for as many more rows as there are excluded ids, which are
        // dropped by the caller, so the first `limit` rows left are the ones a NOT IN term would have returned
        return new ClaimScan(request.worker().value(), now.toEpochMilli(), expiresAt.toEpochMilli(),
                request.workerStaleAfter().toMillis(), request.limit() + excluded);
    }

    private static List<Map<String, Object>> candidates(TaskMapper mapper, ControlClaimRequest request,
            ClaimScan scan) {
        ClaimPhase phase = request.phase();
        return switch (phase) {
            case SUBMIT -> request.atShare().isEmpty() ? mapper.selectSubmitCandidates(scan)
                    : mapper.selectSubmitCandidatesSharing(scan, request.atShare());
            case POLL -> mapper.selectPollCandidates(scan);
            case CANCEL -> mapper.selectCancelCandidates(scan);
            case NOTIFY -> throw new IllegalArgumentException("not a control phase: " + phase);
        };
    }

    /**
     * Claims due deliveries; with {@code dispatch} each claim also marks its delivery dispatched, in the same update
     * (the returned attempt is then the one just counted, as it is the one a later mark would count).
     */
    List<NotificationClaim> claimNotifications(NotificationClaimRequest request, boolean dispatch) {
        if (request.limit() <= 0) {
            return List.of();
        }
        return database.write("claim notifications", session -> {
            TaskMapper mapper = session.mapper();
            Instant now = Instant.ofEpochMilli(clock.now().toEpochMilli());
            Instant expiresAt = now.plusMillis(request.lease().toMillis());
            ClaimScan scan = new ClaimScan(request.worker().value(), now.toEpochMilli(), expiresAt.toEpochMilli(),
                    0, request.limit());
            List<NotificationClaim> claimed = new ArrayList<>();
            for (String id : mapper.selectNotifyCandidates(scan)) {
                ClaimToken token = ids.newClaimToken();
                if (claimed(session, dispatch ? claimNotifyDispatched : claimNotify, scan, id, token)) {
                    TaskRow row = session.row(id);
                    claimed.add(new NotificationClaim(TaskId.of(id), request.worker(), token, expiresAt,
                            row.dispatchVersion(), row.dispatchEvent(), row.dispatchAttempt() + (dispatch ? 0 : 1)));
                }
            }
            return claimed;
        });
    }

    /** Runs one candidate's conditional claim UPDATE: true iff it changed the row. */
    private boolean claimed(WriterSession session, DirectUpdate claim, ClaimScan scan, String id, ClaimToken token) {
        try {
            return claim.execute(session.prepared(claim), scan, id, token.value()) == 1;
        } catch (SQLException e) {
            throw SqliteErrors.translate("claim of task " + id, database.path(), e);
        }
    }
}
