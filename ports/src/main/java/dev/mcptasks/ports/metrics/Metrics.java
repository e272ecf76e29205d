package dev.mcptasks.ports.metrics;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * What the runtime, the MCP client and the gateway tell the operator's metrics. Every label is bounded by the
 * configuration (servers, their tools, gateway principals) or by the protocol (methods, phases, outcomes): a task id
 * is never a label. Calls run on hot paths and return at once; an implementation never throws.
 */
public interface Metrics {
    /** Records nothing: the default where no metrics are served. */
    Metrics NONE = new Metrics() {};

    /** A task was created in the store ({@code principal}: the gateway principal, or null for the CLI and API). */
    default void taskSubmitted(String server, String tool, String principal) {}

    /** A task reached the terminal {@code outcome} through a write of this process. */
    default void taskFinished(String server, String tool, String principal, TaskStatus outcome) {}

    /** One claim statement of {@code phase} ran for {@code took}; the rows it claimed are told by {@link #claimsTaken}. */
    default void claimScanned(ClaimPhase phase, Duration took) {}

    /**
     * {@code count} claims of {@code phase} were taken: by a claim statement, or by a create that took its submit claim
     * for a worker of this process (a call through this process's gateway).
     */
    default void claimsTaken(ClaimPhase phase, int count) {}

    /** A claim of {@code phase} took over a row whose previous lease had expired. */
    default void takeover(ClaimPhase phase) {}

    /** A lease renewal attempt was decided. */
    default void leaseRenewal(RenewalResult result) {}

    /** A fenced write was refused by the store because its claim was gone. */
    default void fenceRefused() {}

    /** One request to an upstream server finished, successfully or not, after {@code took}. */
    default void upstreamRequest(String server, String method, Duration took) {}

    /** A request to an upstream server failed; {@code kind} is one of a small fixed set (timeout, transport, ...). */
    default void upstreamError(String server, String kind) {}

    /** One gateway request ({@code method}: the JSON-RPC method, or a bounded placeholder) was answered. */
    default void gatewayRequest(String method, String principal, Duration took) {}

    /** A notification delivery of the outbox ended with {@code outcome} (delivered, retry, dead_letter, fenced). */
    default void notificationDelivery(String outcome) {}

    /**
     * Publishes a value read at every scrape ({@code name} without the {@code mcp_tasks_} prefix, snake case);
     * {@code labels} are name/value pairs. A later registration of the same name and labels replaces nothing.
     */
    default void gauge(String name, String description, DoubleSupplier value, String... labels) {}

    /** Publishes a monotonic count read at every scrape (name as for {@link #gauge}, without {@code _total}). */
    default void counter(String name, String description, DoubleSupplier value, String... labels) {}

    /** How one lease renewal attempt ended. */
    enum RenewalResult {
        RENEWED, REJECTED, FAILED, STALLED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
