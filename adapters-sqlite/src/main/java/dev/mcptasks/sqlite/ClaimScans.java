package dev.mcptasks.sqlite;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.sqlite.SqlParams.ClaimScan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Control and notification claim scans. Each is one writer transaction begun with {@code BEGIN IMMEDIATE}: the
 * candidates are read with the write lock already held, so no other connection (in this process or another) can
 * claim them between the read and the updates. Each candidate is still claimed by an UPDATE that repeats every
 * eligibility predicate, and only rows that UPDATE actually changed are returned.
 */
final class ClaimScans {
    private final SqliteDatabase database;
    private final Clock clock;
    private final IdGenerator ids;

    ClaimScans(SqliteDatabase database, Clock clock, IdGenerator ids) {
        this.database = database;
        this.clock = clock;
        this.ids = ids;
    }

    List<ClaimedTask> claimControl(ControlClaimRequest request) {
        if (request.limit() == 0) {
            return List.of();
        }
        return database.write("claim " + request.phase().wireName() + " rows", mapper -> {
            Instant now = Instant.ofEpochMilli(clock.now().toEpochMilli());
            Instant expiresAt = now.plusMillis(request.lease().toMillis());
            ClaimScan scan = new ClaimScan(request.worker().value(), now.toEpochMilli(), expiresAt.toEpochMilli(),
                    request.workerStaleAfter().toMillis(),
                    request.excluded().stream().map(TaskId::value).sorted().toList(), request.limit());
            List<String> candidates = switch (request.phase()) {
                case SUBMIT -> mapper.selectSubmitCandidates(scan);
                case POLL -> mapper.selectPollCandidates(scan);
                case CANCEL -> mapper.selectCancelCandidates(scan);
                case NOTIFY -> throw new IllegalArgumentException("not a control phase: " + request.phase());
            };
            ClaimUpdate claim = switch (request.phase()) {
                case SUBMIT -> mapper::claimSubmit;
                case POLL -> mapper::claimPoll;
                default -> mapper::claimCancel;
            };
            if (candidates.isEmpty()) {
                return List.of();
            }
            // read in the same BEGIN IMMEDIATE transaction: releases clear the owner, so an owner left on a due,
            // free row is the expired claim of a dead or stalled worker (a recovery)
            Map<String, ClaimPhase> expired = new java.util.HashMap<>();
            for (Map<String, Object> leased : mapper.selectLeasedIds(candidates)) {
                Object phase = leased.containsKey("lease_phase") ? leased.get("lease_phase") : leased.get("leasePhase");
                expired.put(String.valueOf(leased.get("id")), ClaimPhase.fromWire(String.valueOf(phase)));
            }
            Map<String, Claim> granted = new LinkedHashMap<>();
            for (String id : candidates) {
                ClaimToken token = ids.newClaimToken();
                if (claim.apply(scan, id, token.value()) == 1) {
                    granted.put(id, new Claim(TaskId.of(id), request.phase(), request.worker(), token, expiresAt));
                }
            }
            return withRows(mapper, granted,
                    (row, grant) -> new ClaimedTask(grant, row.toRecord(), expired.get(row.id())));
        });
    }

    List<NotificationClaim> claimNotifications(NotificationClaimRequest request) {
        if (request.limit() <= 0) {
            return List.of();
        }
        return database.write("claim notifications", mapper -> {
            Instant now = Instant.ofEpochMilli(clock.now().toEpochMilli());
            Instant expiresAt = now.plusMillis(request.lease().toMillis());
            ClaimScan scan = new ClaimScan(request.worker().value(), now.toEpochMilli(), expiresAt.toEpochMilli(),
                    0, List.of(), request.limit());
            Map<String, ClaimToken> granted = new LinkedHashMap<>();
            for (String id : mapper.selectNotifyCandidates(scan)) {
                ClaimToken token = ids.newClaimToken();
                if (mapper.claimNotify(scan, id, token.value()) == 1) {
                    granted.put(id, token);
                }
            }
            return withRows(mapper, granted, (row, token) -> new NotificationClaim(TaskId.of(row.id()),
                    request.worker(), token, expiresAt, row.dispatchVersion(), row.dispatchEvent(),
                    row.dispatchAttempt() + 1));
        });
    }

    /** Reads the claimed rows back in one statement, in claim order. */
    private static <G, R> List<R> withRows(TaskMapper mapper, Map<String, G> granted,
            BiFunction<TaskRow, G, R> result) {
        if (granted.isEmpty()) {
            return List.of();
        }
        Map<String, TaskRow> rows = new HashMap<>();
        for (TaskRow row : mapper.selectTasks(List.copyOf(granted.keySet()))) {
            rows.put(row.id(), row);
        }
        List<R> results = new ArrayList<>(granted.size());
        granted.forEach((id, grant) -> results.add(result.apply(rows.get(id), grant)));
        return results;
    }

    /** One of the per-phase conditional claim UPDATEs. */
    @FunctionalInterface
    private interface ClaimUpdate {
        int apply(ClaimScan scan, String id, String token);
    }
}
