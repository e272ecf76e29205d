package dev.mcptasks.adapters.gateway;

import java.util.Map;

/**
 * What one principal may hold of the gateway ({@code gateway.quotas}): tasks not yet ended, and tool calls per
 * minute. A call past either is answered at once with a JSON-RPC error that says which quota and when to retry, and
 * nothing is stored. Unset limits are unlimited.
 *
 * @param defaults every principal's limits
 * @param principals limits of named principals, replacing the defaults for them
 */
public record Quotas(Limit defaults, Map<String, Limit> principals) {
    public static final Quotas NONE = new Quotas(Limit.UNLIMITED, Map.of());

    public Quotas {
        principals = Map.copyOf(principals);
    }

    Limit of(String principal) {
        return principals.getOrDefault(principal, defaults);
    }

    /**
     * @param concurrentTasks the most tasks (pending, working, input_required) the principal has at once; null:
     *     unlimited
     * @param callsPerMinute the most tool calls the principal makes in a minute (a bucket refilled evenly); null:
     *     unlimited
     */
    public record Limit(Integer concurrentTasks, Integer callsPerMinute) {
        public static final Limit UNLIMITED = new Limit(null, null);

        public Limit {
            if (concurrentTasks != null && concurrentTasks < 1) {
                throw new IllegalArgumentException("concurrentTasks must be positive: " + concurrentTasks);
            }
            if (callsPerMinute != null && callsPerMinute < 1) {
                throw new IllegalArgumentException("callsPerMinute must be positive: " + callsPerMinute);
            }
        }
    }
}
