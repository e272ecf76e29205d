package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskQuery;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks a principal's {@link Quotas} before its tool call is stored. The call rate is a token bucket per principal in
 * this gateway process (refilled evenly, {@code callsPerMinute} deep); the concurrent tasks are counted in the store,
 * so they hold across gateway replicas. Two calls checked at the same moment may both pass the count: the task quota
 * is exact to within the calls in flight at once.
 */
final class QuotaGate {
    /** Quota errors: an implementation-defined server error, with data naming the quota and the wait. */
    static final int QUOTA_EXCEEDED = -32000;
    private static final List<TaskStatus> OPEN = List.of(TaskStatus.PENDING, TaskStatus.WORKING,
            TaskStatus.INPUT_REQUIRED);

    private final Quotas quotas;
    private final TaskService tasks;
    private final Clock clock;
    private final long retryAfterSeconds;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    /** @param retryAfterSeconds the wait suggested when tasks must end first (the clients' poll interval) */
    QuotaGate(Quotas quotas, TaskService tasks, Clock clock, long retryAfterSeconds) {
        this.quotas = quotas;
        this.tasks = tasks;
        this.clock = clock;
        this.retryAfterSeconds = Math.max(1, retryAfterSeconds);
    }

    /** Admits one tool call of {@code principal}, or throws the quota error to answer with. */
    void admit(String principal) {
        Quotas.Limit limit = quotas.of(principal);
        if (limit.callsPerMinute() != null) {
            Bucket bucket = buckets.computeIfAbsent(principal, key -> new Bucket(limit.callsPerMinute(),
                    clock.nanoTime()));
            long waitNanos = bucket.take(clock.nanoTime());
            if (waitNanos > 0) {
                long seconds = Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
                throw exceeded("callsPerMinute", limit.callsPerMinute(), seconds, "principal '" + principal
                        + "' made " + limit.callsPerMinute() + " tool calls in the last minute");
            }
        }
        if (limit.concurrentTasks() != null) {
            int open = 0;
            for (TaskStatus status : OPEN) {
                open += tasks.listFor(principal, new TaskQuery(status, null, limit.concurrentTasks(), null)).size();
                if (open >= limit.concurrentTasks()) {
                    throw exceeded("concurrentTasks", limit.concurrentTasks(), retryAfterSeconds, "principal '"
                            + principal + "' has " + limit.concurrentTasks() + " tasks not yet ended");
                }
            }
        }
    }

    private static FrontError exceeded(String quota, int limit, long retryAfterSeconds, String why) {
        ObjectNode data = FrontJson.object().put("quota", quota).put("limit", limit)
                .put("retryAfterSeconds", retryAfterSeconds);
        return new FrontError(QUOTA_EXCEEDED, "Quota exceeded: " + why + " (gateway.quotas " + quota + " " + limit
                + "); retry after " + retryAfterSeconds + " s", data);
    }

    /** A token bucket: {@code perMinute} deep, refilled evenly over the minute. */
    private static final class Bucket {
        private final int perMinute;
        private final long nanosPerToken;
        private double tokens;
        private long lastNanos;

        Bucket(int perMinute, long now) {
            this.perMinute = perMinute;
            this.nanosPerToken = 60_000_000_000L / perMinute;
            this.tokens = perMinute;
            this.lastNanos = now;
        }

        /** Takes a token; returns 0, or how long until one is there (nothing taken). */
        synchronized long take(long now) {
            tokens = Math.min(perMinute, tokens + (double) (now - lastNanos) / nanosPerToken);
            lastNanos = now;
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return (long) Math.ceil((1 - tokens) * nanosPerToken);
        }
    }
}
