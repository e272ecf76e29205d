package dev.mcptasks.adapters.admin;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.metrics.Metrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.function.DoubleSupplier;

/**
 * The metrics port on a Micrometer registry. Names follow Prometheus conventions ({@code mcp_tasks_} prefix, base
 * units, {@code _total} added to counters by the registry); latency histograms have fixed buckets so every label set
 * costs the same dozen series. A null label value (a task without principal) is written as {@code none}.
 */
final class MicrometerMetrics implements Metrics {
    static final String PREFIX = "mcp_tasks_";
    private static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
        Duration.ofSeconds(30)};

    private final MeterRegistry registry;

    MicrometerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void taskSubmitted(String server, String tool, String principal) {
        counter("submitted", "Tasks created in the store", "server", server, "tool", tool, "principal", principal)
                .increment();
    }

    @Override
    public void taskFinished(String server, String tool, String principal, TaskStatus outcome) {
        counter("finished", "Tasks that reached a terminal status through this process", "server", server,
                "tool", tool, "principal", principal, "outcome", outcome.wireName()).increment();
    }

    @Override
    public void claimScanned(ClaimPhase phase, Duration took) {
        timer("claim_scan", "Duration of one claim statement", "phase", phase.wireName()).record(took);
    }

    @Override
    public void claimsTaken(ClaimPhase phase, int count) {
        counter("claims", "Control claims taken", "phase", phase.wireName()).increment(count);
    }

    @Override
    public void takeover(ClaimPhase phase) {
        counter("takeovers", "Claims that took over a row whose previous lease had expired", "phase",
                phase.wireName()).increment();
    }

    @Override
    public void leaseRenewal(RenewalResult result) {
        if (result == RenewalResult.RENEWED) {
            counter("lease_renewals", "Successful lease renewals").increment();
        } else {
            counter("lease_renewal_failures", "Renewals that lost the claim", "reason", result.label()).increment();
        }
    }

    @Override
    public void fenceRefused() {
        counter("fence_refusals", "Writes the store refused because their claim was gone").increment();
    }

    @Override
    public void upstreamRequest(String server, String method, Duration took) {
        timer("upstream_request", "Duration of one request to an upstream MCP server", "server", server,
                "method", method).record(took);
    }

    @Override
    public void upstreamError(String server, String kind) {
        counter("upstream_errors", "Failed requests to upstream MCP servers", "server", server, "kind", kind)
                .increment();
    }

    @Override
    public void gatewayRequest(String method, String principal, Duration took) {
        timer("gateway_request", "Duration of one gateway request", "method", method, "principal", principal)
                .record(took);
    }

    @Override
    public void notificationDelivery(String outcome) {
        counter("notification_deliveries", "Outbox deliveries by outcome", "outcome", outcome).increment();
    }

    @Override
    public void gauge(String name, String description, DoubleSupplier value, String... labels) {
        Gauge.builder(PREFIX + name, value::getAsDouble).description(description).tags(tags(labels))
                .register(registry);
    }

    @Override
    public void counter(String name, String description, DoubleSupplier value, String... labels) {
        FunctionCounter.builder(PREFIX + name, value, DoubleSupplier::getAsDouble).description(description)
                .tags(tags(labels)).register(registry);
    }

    private Counter counter(String name, String description, String... labels) {
        return Counter.builder(PREFIX + name).description(description).tags(tags(labels)).register(registry);
    }

    private Timer timer(String name, String description, String... labels) {
        return Timer.builder(PREFIX + name).description(description).tags(tags(labels))
                .serviceLevelObjectives(BUCKETS).register(registry);
    }

    private static Tags tags(String... labels) {
        String[] values = labels.clone();
        for (int i = 1; i < values.length; i += 2) {
            if (values[i] == null) {
                values[i] = "none";
            }
        }
        return Tags.of(values);
    }
}
