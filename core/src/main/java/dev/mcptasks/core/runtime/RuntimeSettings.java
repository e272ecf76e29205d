package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.LeaseMath;
import java.time.Duration;
import java.util.Objects;

/**
 * The tunables of one worker's control loop (runtime-behaviour.md section 10). The configuration layer checks the
 * documented ranges and names the offending key; this record only refuses values the runtime cannot work with.
 *
 * @param lease control-claim lease: a crash-recovery window, not a call timeout; renewed every third
 * @param pollInterval default interval between status polls (and the backoff base)
 * @param maxConcurrentControlCalls capacity slots of this worker
 * @param maxBackoff the largest delay after repeated failures
 * @param inputRequiredPoll the least interval between polls of an {@code input_required} task
 * @param degradedAfterErrors consecutive errors after which a tracking-degraded event is recorded
 * @param maxResultBytes larger results are stored as a preview with {@code result_truncated}
 * @param drain how long shutdown, autonomous completion and ownership loss wait for calls to settle
 * @param tickInterval time between control-loop ticks: the idle fallback. New work (a task created, a cancel
 *     requested, an answer stored) wakes the worker through the store, and a scan that filled its slots continues as
 *     slots free up; only work due by time alone (a poll's next due time, a retry after backoff, a notification
 *     retry, another worker's expired lease) waits for the next tick
 * @param workerStaleAfter a worker not heartbeated for this long is considered dead
 * @param sinkTimeout how long one notification delivery may take before it counts as a failed attempt
 */
public record RuntimeSettings(Duration lease, Duration pollInterval, int maxConcurrentControlCalls,
        Duration maxBackoff, Duration inputRequiredPoll, int degradedAfterErrors, long maxResultBytes,
        Duration drain, Duration tickInterval, Duration workerStaleAfter, Duration sinkTimeout) {

    /** The default bound of one notification delivery. */
    public static final Duration DEFAULT_SINK_TIMEOUT = Duration.ofSeconds(30);

    public RuntimeSettings {
        requirePositive("sinkTimeout", sinkTimeout);
        requirePositive("lease", lease);
        requirePositive("pollInterval", pollInterval);
        requirePositive("maxBackoff", maxBackoff);
        requirePositive("inputRequiredPoll", inputRequiredPoll);
        requirePositive("tickInterval", tickInterval);
        requirePositive("workerStaleAfter", workerStaleAfter);
        Objects.requireNonNull(drain, "drain");
        if (drain.isNegative()) {
            throw new DomainException("drain must not be negative, was " + drain);
        }
        if (maxConcurrentControlCalls < 1) {
            throw new DomainException("maxConcurrentControlCalls must be at least 1, was " + maxConcurrentControlCalls);
        }
        if (degradedAfterErrors < 1) {
            throw new DomainException("degradedAfterErrors must be at least 1, was " + degradedAfterErrors);
        }
        if (maxResultBytes < 1024) {
            throw new DomainException("maxResultBytes must be at least 1024, was " + maxResultBytes);
        }
    }

    /** Settings with the default {@link #DEFAULT_SINK_TIMEOUT}. */
    public RuntimeSettings(Duration lease, Duration pollInterval, int maxConcurrentControlCalls, Duration maxBackoff,
            Duration inputRequiredPoll, int degradedAfterErrors, long maxResultBytes, Duration drain,
            Duration tickInterval, Duration workerStaleAfter) {
        this(lease, pollInterval, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll, degradedAfterErrors,
                maxResultBytes, drain, tickInterval, workerStaleAfter, DEFAULT_SINK_TIMEOUT);
    }

    /**
     * Control slots of a worker by default. Every slot is one control call in flight (a direct call holds its slot
     * for the whole tool call), and a worker's tasks move through the store in waves of at most this many (claim,
     * submit attempt, result: three commits in sequence per wave), so it bounds throughput as well: 32 slots burned
     * down 1.5 to 2.7 times as many tasks per second as 8 did (docs/benchmark.md).
     */
    public static final int DEFAULT_SLOTS = 32;

    /** The documented defaults: 120 s lease, 5 s poll, 32 slots, 300 s backoff cap, 60 s input_required, 3 errors, 8 MiB, 5 s drain, 1 s tick, 30 s stale, 30 s sink timeout. */
    public static RuntimeSettings defaults() {
        return new RuntimeSettings(Duration.ofSeconds(120), Duration.ofSeconds(5), DEFAULT_SLOTS,
                Duration.ofSeconds(300), Duration.ofSeconds(60), 3, 8L * 1024 * 1024, Duration.ofSeconds(5), Duration.ofSeconds(1),
                Duration.ofSeconds(30));
    }

    public RuntimeSettings withLease(Duration value) {
        return new RuntimeSettings(value, pollInterval, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, drain, tickInterval, workerStaleAfter, sinkTimeout);
    }

    public RuntimeSettings withMaxConcurrentControlCalls(int value) {
        return new RuntimeSettings(lease, pollInterval, value, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, drain, tickInterval, workerStaleAfter, sinkTimeout);
    }

    public RuntimeSettings withDrain(Duration value) {
        return new RuntimeSettings(lease, pollInterval, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, value, tickInterval, workerStaleAfter, sinkTimeout);
    }

    public RuntimeSettings withPollInterval(Duration value) {
        return new RuntimeSettings(lease, value, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, drain, tickInterval, workerStaleAfter, sinkTimeout);
    }

    public RuntimeSettings withTickInterval(Duration value) {
        return new RuntimeSettings(lease, pollInterval, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, drain, value, workerStaleAfter, sinkTimeout);
    }

    public RuntimeSettings withSinkTimeout(Duration value) {
        return new RuntimeSettings(lease, pollInterval, maxConcurrentControlCalls, maxBackoff, inputRequiredPoll,
                degradedAfterErrors, maxResultBytes, drain, tickInterval, workerStaleAfter, value);
    }

    /** How often renewals run and how long each attempt may take: a third of the lease. */
    public Duration renewalInterval() {
        return LeaseMath.renewalInterval(lease);
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new DomainException(name + " must be a positive duration, was " + value);
        }
    }
}
