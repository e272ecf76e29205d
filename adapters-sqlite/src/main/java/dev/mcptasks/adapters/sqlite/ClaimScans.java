package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.adapters.sqlite.DirectStatement.Param;
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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;

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
    private final DirectStatement submitCandidates;
    private final DirectStatement pollCandidates;
    private final DirectStatement cancelCandidates;
    private final DirectStatement notifyCandidates;
    private final DirectStatement claimSubmit;
    private final DirectStatement claimPoll;
    private final DirectStatement claimCancel;
    private final DirectStatement claimNotify;
    private final DirectStatement claimNotifyDispatched;
    /**
     * Per control phase (by ordinal), 1 when the phase's last scan claimed as many rows as it asked for: more are
     * then likely due, and the next scan skips the reader's look (it would read what the scan reads). A wrong guess
     * costs one empty scan under the write lock, never a missed row.
     */
    private final AtomicIntegerArray lastScanFilled = new AtomicIntegerArray(ClaimPhase.values().length);

    ClaimScans(SqliteDatabase database, Clock clock, IdGenerator ids) {
        this.database = database;
        this.clock = clock;
        this.ids = ids;
        this.submitCandidates = candidateQuery(database, "selectSubmitCandidates");
        this.pollCandidates = candidateQuery(database, "selectPollCandidates");
        this.cancelCandidates = candidateQuery(database, "selectCancelCandidates");
        this.notifyCandidates = candidateQuery(database, "selectNotifyCandidates");
        this.claimSubmit = claimUpdate(database, "claimSubmit");
        this.claimPoll = claimUpdate(database, "claimPoll");
        this.claimCancel = claimUpdate(database, "claimCancel");
        this.claimNotify = claimUpdate(database, "claimNotify");
        this.claimNotifyDispatched = claimUpdate(database, "claimNotifyDispatched");
    }

    /** A candidate read, run by plain JDBC and mapped by hand (MyBatis's map per row was a third of a scan). */
    private static DirectStatement candidateQuery(SqliteDatabase database, String statement) {
        return DirectStatement.of(database.configuration(), statement, Param.record("s", ClaimScan.class));
    }

    /** A per-candidate claim UPDATE, run by plain JDBC like the batched writes (MyBatis per row was a third of it). */
    private static DirectStatement claimUpdate(SqliteDatabase database, String statement) {
        return DirectStatement.of(database.configuration(), statement, Param.record("s", ClaimScan.class),
                Param.value("id"), Param.value("token"));
    }

    List<ClaimedTask> claimControl(ControlClaimRequest request) {
        if (request.limit() == 0) {
            return List.of();
        }
        Set<String> excluded = new HashSet<>();
        request.excluded().forEach(id -> excluded.add(id.value()));
        int phase = request.phase().ordinal();
        if (lastScanFilled.get(phase) == 0 && !anyDue(request, excluded)) {
            return List.of();
        }
        List<ClaimedTask> claimed = database.write("claim " + request.phase().wireName() + " rows",
                session -> claim(session, request, excluded));
        lastScanFilled.set(phase, claimed.size() == request.limit() ? 1 : 0);
        return claimed;
    }

    private List<ClaimedTask> claim(WriterSession session, ControlClaimRequest request, Set<String> excluded) {
        // the statement is static (prepared once): ask for as many more rows as there are excluded ids, which are
        // dropped below, so the first `limit` rows left are the ones a NOT IN term would have returned
        ClaimScan scan = scan(request, request.limit() + excluded.size());
        Instant expiresAt = Instant.ofEpochMilli(scan.expiresAt());
        DirectStatement claim = switch (request.phase()) {
            case SUBMIT -> claimSubmit;
            case POLL -> claimPoll;
            default -> claimCancel;
        };
        List<ClaimedTask> claimed = new ArrayList<>();
        List<TaskEvent> events = new ArrayList<>();
        for (Candidate candidate : candidates(session, request, scan)) {
            String id = candidate.id();
            if (claimed.size() == request.limit() || excluded.contains(id)) {
                continue;
            }
            // read in the same BEGIN IMMEDIATE transaction: releases clear the owner, so an owner left on a due,
            // free row is the expired claim of a dead or stalled worker (a recovery)
            ClaimPhase expired = candidate.leaseOwner() == null ? null
                    : ClaimPhase.fromWire(String.valueOf(candidate.leasePhase()));
            ClaimToken token = ids.newClaimToken();
            if (claimed(session, claim, scan, id, token)) {
                Claim grant = new Claim(TaskId.of(id), request.phase(), request.worker(), token, expiresAt);
                ClaimedTask task = new ClaimedTask(grant, session.row(id).toRecord(), expired);
                claimed.add(task);
                if (TaskEvent.recorded(request.phase(), task.recovered()) && !firstClaimOnRow(task)) {
                    events.add(TaskEvent.of(Instant.ofEpochMilli(scan.now()), task,
                            expired == null ? null : WorkerId.of(candidate.leaseOwner())));
                }
            }
        }
        // the claims' history, in the claim's transaction: one batch per scan
        SqliteTaskHistory.append(session, events, database.path());
        return claimed;
    }

    /**
     * Whether a reader sees any row this scan could claim, besides the excluded ones (no write lock taken): the
     * first {@code excluded + 1} due rows hold one that is not excluded if any row does.
     */
    private boolean anyDue(ControlClaimRequest request, Set<String> excluded) {
        ClaimScan probe = scan(request, excluded.size() + 1);
        String operation = "look for due " + request.phase().wireName() + " rows";
        if (sharing(request)) {
            return database.read(operation, mapper -> mapper.selectSubmitCandidatesSharing(probe, request.atShare()))
                    .stream().anyMatch(candidate -> !excluded.contains((String) candidate.get("id")));
        }
        DirectStatement query = candidateQuery(request.phase());
        return database.readPrepared(operation, query.sql(), statement -> {
            try (ResultSet rows = query.query(statement, probe)) {
                while (rows.next()) {
                    if (!excluded.contains(rows.getString("id"))) {
                        return true;
                    }
                }
                return false;
            }
        });
    }

    private ClaimScan scan(ControlClaimRequest request, int limit) {
        long now = clock.now().toEpochMilli();
        return new ClaimScan(request.worker().value(), now, now + request.lease().toMillis(),
                request.workerStaleAfter().toMillis(), limit);
    }

    private static boolean sharing(ControlClaimRequest request) {
        return request.phase() == ClaimPhase.SUBMIT && !request.atShare().isEmpty();
    }

    private DirectStatement candidateQuery(ClaimPhase phase) {
        return switch (phase) {
            case SUBMIT -> submitCandidates;
            case POLL -> pollCandidates;
            case CANCEL -> cancelCandidates;
            case NOTIFY -> throw new IllegalArgumentException("not a control phase: " + phase);
        };
    }

    /** The scan's candidates in due order, all read before the first claim changes the index they are read from. */
    private List<Candidate> candidates(WriterSession session, ControlClaimRequest request, ClaimScan scan) {
        if (sharing(request)) {
            return session.mapper().selectSubmitCandidatesSharing(scan, request.atShare()).stream()
                    .map(row -> new Candidate((String) row.get("id"), (String) row.get("lease_owner"),
                            (String) row.get("lease_phase")))
                    .toList();
        }
        return rows(session, candidateQuery(request.phase()), scan, "the " + request.phase().wireName() + " candidates",
                rows -> new Candidate(rows.getString("id"), rows.getString("lease_owner"),
                        rows.getString("lease_phase")));
    }

    /**
     * Whether the claim just made is the task's first submit claim, which the claim's own update kept on the row
     * (V013) instead of the history's table: the claim that took the attempt count from 0 to 1.
     */
    private static boolean firstClaimOnRow(ClaimedTask task) {
        return task.claim().phase() == ClaimPhase.SUBMIT && !task.recovered()
                && task.task().control().submitAttemptCount() == 1;
    }

    /** A due row and the lease it holds (an expired claim's owner and phase; both null when free). */
    private record Candidate(String id, String leaseOwner, String leasePhase) {}

    /**
     * Claims due deliveries; with {@code dispatch} each claim also marks its delivery dispatched, in the same update
     * (the returned attempt is then the one just counted, as it is the one a later mark would count).
     */
    List<NotificationClaim> claimNotifications(NotificationClaimRequest request, boolean dispatch) {
        if (request.limit() <= 0) {
            return List.of();
        }
        return database.write("claim notifications", session -> {
            Instant now = Instant.ofEpochMilli(clock.now().toEpochMilli());
            Instant expiresAt = now.plusMillis(request.lease().toMillis());
            ClaimScan scan = new ClaimScan(request.worker().value(), now.toEpochMilli(), expiresAt.toEpochMilli(),
                    0, request.limit());
            List<NotificationClaim> claimed = new ArrayList<>();
            for (String id : notificationCandidates(session, scan)) {
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

    /** The due deliveries' ids in due order, all read before the first claim changes the index they are read from. */
    private List<String> notificationCandidates(WriterSession session, ClaimScan scan) {
        return rows(session, notifyCandidates, scan, "the notification candidates", rows -> rows.getString("id"));
    }

    /** Every row of a candidate {@code query} in the writer's transaction, each mapped by {@code row}. */
    private <T> List<T> rows(WriterSession session, DirectStatement query, ClaimScan scan, String what,
            RowMapper<T> row) {
        List<T> found = new ArrayList<>();
        try (ResultSet rows = query.query(session.prepared(query), scan)) {
            while (rows.next()) {
                found.add(row.map(rows));
            }
        } catch (SQLException e) {
            throw SqliteErrors.translate("read " + what, database.path(), e);
        }
        return found;
    }

    /** Maps the current row of a result set. */
    @FunctionalInterface
    private interface RowMapper<T> {
        T map(ResultSet rows) throws SQLException;
    }

    /** Runs one candidate's conditional claim UPDATE: true iff it changed the row. */
    private boolean claimed(WriterSession session, DirectStatement claim, ClaimScan scan, String id, ClaimToken token) {
        try {
            return claim.execute(session.prepared(claim), scan, id, token.value()) == 1;
        } catch (SQLException e) {
            throw SqliteErrors.translate("claim of task " + id, database.path(), e);
        }
    }
}
