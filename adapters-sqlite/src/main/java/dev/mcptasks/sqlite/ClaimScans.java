package dev.mcptasks.sqlite;

import dev.mcptasks.domain.Claim;
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
import java.util.List;

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
                    request.liveWorkersSince().toEpochMilli(),
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
            List<ClaimedTask> claimed = new ArrayList<>(candidates.size());
            for (String id : candidates) {
                ClaimToken token = ids.newClaimToken();
                if (claim.apply(scan, id, token.value()) == 1) {
                    Claim granted = new Claim(TaskId.of(id), request.phase(), request.worker(), token, expiresAt);
                    claimed.add(new ClaimedTask(granted, mapper.selectTask(id).toRecord()));
                }
            }
            return claimed;
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
                    now.toEpochMilli(), List.of(), request.limit());
            List<NotificationClaim> claimed = new ArrayList<>();
            for (String id : mapper.selectNotifyCandidates(scan)) {
                ClaimToken token = ids.newClaimToken();
                if (mapper.claimNotify(scan, id, token.value()) == 1) {
                    TaskRow row = mapper.selectTask(id);
                    claimed.add(new NotificationClaim(TaskId.of(id), request.worker(), token, expiresAt,
                            row.dispatchVersion(), row.dispatchEvent(), row.dispatchAttempt() + 1));
                }
            }
            return claimed;
        });
    }

    /** One of the per-phase conditional claim UPDATEs. */
    @FunctionalInterface
    private interface ClaimUpdate {
        int apply(ClaimScan scan, String id, String token);
    }
}
