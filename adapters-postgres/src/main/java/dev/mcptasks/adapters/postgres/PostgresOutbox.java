package dev.mcptasks.adapters.postgres;

import dev.mcptasks.adapters.postgres.SqlParams.Deliveries;
import dev.mcptasks.adapters.postgres.SqlParams.OutboxFence;
import dev.mcptasks.domain.SnapshotNormalizer;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/** The notification outbox of the PostgreSQL store: delivery claims and their fenced writes. */
final class PostgresOutbox {
    private static final Comparator<DeliveryRow> DUE_ORDER = Comparator
            .comparing((DeliveryRow row) -> row.nextNotificationAt)
            .thenComparing(row -> row.id);

    private final PostgresStore store;
    private final Clock clock;
    private final IdGenerator ids;
    private final FencedWriteHook hook;
    private final FencedBatch batch;

    PostgresOutbox(PostgresStore store, Clock clock, IdGenerator ids, FencedWriteHook hook, FencedBatch batch) {
        this.store = store;
        this.clock = clock;
        this.ids = ids;
        this.hook = hook;
        this.batch = batch;
    }

    /** Claims due deliveries; with {@code dispatch}, marks each dispatched in the same statement. */
    List<NotificationClaim> claim(NotificationClaimRequest request, boolean dispatch) {
        Objects.requireNonNull(request, "request");
        int limit = Math.min(Math.max(request.limit(), 0), PostgresTaskRepository.MAX_CLAIM_BATCH);
        if (limit == 0) {
            return List.of();
        }
        String[] tokens = Times.tokens(ids, limit);
        Instant now = Times.now(clock);
        Instant expiresAt = Times.millis(now.plus(request.lease()));
        String worker = request.worker().value();
        List<DeliveryRow> rows = store.autoCommit("claim notifications", mapper -> dispatch
                ? mapper.claimNotificationsDispatched(worker, now, expiresAt, tokens, limit)
                : mapper.claimNotifications(worker, now, expiresAt, tokens, limit));
        return rows.stream().sorted(DUE_ORDER).map(DeliveryRow::toClaim).toList();
    }

    boolean markDispatched(NotificationClaim claim) {
        return fenced(FencedWrite.NOTIFY_DISPATCH, claim, fence -> mapper -> mapper.markDispatched(fence));
    }

    boolean finish(NotificationClaim claim) {
        return fenced(FencedWrite.NOTIFY_FINISH, claim,
                fence -> mapper -> mapper.settleNotification(fence, "delivered", null));
    }

    List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
        List<TaskId> taskIds = taskIds(claims);
        return batch.run(FencedWrite.NOTIFY_DISPATCH, taskIds, taskIds,
                now -> mapper -> mapper.markAllDispatched(Deliveries.of(claims), now));
    }

    List<Boolean> finishAll(List<NotificationClaim> claims) {
        List<TaskId> taskIds = taskIds(claims);
        return batch.run(FencedWrite.NOTIFY_FINISH, taskIds, taskIds,
                now -> mapper -> mapper.finishNotifications(Deliveries.of(claims), now));
    }

    private static List<TaskId> taskIds(List<NotificationClaim> claims) {
        return claims.stream().map(NotificationClaim::taskId).toList();
    }

    boolean retry(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
        Objects.requireNonNull(nextAt, "nextAt");
        String capped = cap(error);
        return fenced(FencedWrite.NOTIFY_RETRY, claim, fence -> mapper -> mapper.retryNotification(fence, capped,
                Times.millis(nextAt), counted ? 1 : 0));
    }

    boolean deadLetter(NotificationClaim claim, String error) {
        String capped = cap(error);
        return fenced(FencedWrite.NOTIFY_DEAD_LETTER, claim,
                fence -> mapper -> mapper.settleNotification(fence, "dead_letter", capped));
    }

    boolean release(NotificationClaim claim) {
        return fenced(FencedWrite.NOTIFY_RELEASE, claim, fence -> mapper -> mapper.releaseNotification(fence));
    }

    /** Same ordering as the control fences: hook, then "now", then the one conditional UPDATE. */
    private boolean fenced(FencedWrite write, NotificationClaim claim,
            Function<OutboxFence, Function<TaskMapper, Integer>> update) {
        Objects.requireNonNull(claim, "claim");
        hook.beforeFencedWrite(write, claim.taskId());
        OutboxFence fence = OutboxFence.of(claim, Times.now(clock));
        return store.autoCommit(write.name().toLowerCase(Locale.ROOT) + " of " + claim.taskId(),
                update.apply(fence)) == 1;
    }

    private static String cap(String error) {
        return SnapshotNormalizer.cap(Objects.requireNonNull(error, "error"), SnapshotNormalizer.MAX_ERROR_CHARS);
    }
}
