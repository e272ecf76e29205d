package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Module;
import com.sun.net.httpserver.HttpServer;
import dev.mcptasks.adapters.admin.AdminListener;
import dev.mcptasks.adapters.http.HttpTransportModule;
import dev.mcptasks.app.assembly.AdminModules;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.InMemoryPlatform;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryCredentialStore;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.faults.FaultInjectingRepository;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The values on {@code /metrics}, not only their names: the worker assembly of {@code serve} with its admin listener,
 * on a manual clock over the in-memory store (wrapped to fail a renewal and to make each claim scan take 30 ms of that
 * clock), in front of the reference server. The runtime is ticked by hand, so every scan, renewal and delivery the
 * test asserts was caused by it; what runs on the runtime's threads afterwards (a call, a delivery) is awaited by its
 * own counter or by the task's committed change, never by a sleep.
 */
class MetricValuesEndToEndTest {
    private static final Duration SCAN = Duration.ofMillis(30);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Near real time: the reference server's task ttls count on its own clock. */
    private final ManualClock clock = new ManualClock(Instant.now());
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository memory = new InMemoryTaskRepository(clock, ids);
    private final FaultInjectingRepository faults = new FaultInjectingRepository(memory);
    private final OpenedResources opened = new OpenedResources();
    private ReferenceServer server;
    private Application app;
    private MetricsScrape metrics;

    @AfterEach
    void close() throws Exception {
        faults.healAll();
        opened.close();
    }

    /**
     * Queue lag per phase, claim scan latency, lease renewals and their failures, upstream errors by kind: two long
     * tasks wait 42 s to be claimed, are created remotely, wait in the poll phase, and are claimed for a poll whose
     * verification renewal succeeds for one and fails (the store throws) for the other; a task with bad arguments is
     * refused by the server, and one for a server that does not listen fails to connect.
     */
    @Test
    void queueLagScanLatencyRenewalsAndUpstreamErrorsHaveTheirValues() throws Exception {
        start(null);
        TaskService tasks = app.get(TaskService.class);
        TaskId renewed = tasks.submit("ref", "work", "{\"durationMs\":600000}").id();
        TaskId unrenewed = tasks.submit("ref", "work", "{\"durationMs\":600000}").id();
        TaskId refused = tasks.submit("ref", "work", "{\"durationMs\":-1}").id();
        tasks.submit("down", "work", "{}");

        clock.advance(Duration.ofSeconds(42));
        String waiting = metrics.scrape();
        assertThat(value(waiting, "mcp_tasks_oldest_due_age_seconds{phase=\"submit\"}")).isEqualTo(42.0);
        assertThat(value(waiting, "mcp_tasks_oldest_due_age_seconds{phase=\"poll\"}")).isZero();
        assertThat(value(waiting, "mcp_tasks_oldest_due_age_seconds{phase=\"cancel\"}")).isZero();

        CompletableFuture<TaskRecord> created = rowWhen(renewed, row -> row.state().remoteTaskId() != null);
        CompletableFuture<TaskRecord> createdToo = rowWhen(unrenewed, row -> row.state().remoteTaskId() != null);
        CompletableFuture<TaskRecord> failed = rowWhen(refused, row -> row.status().isTerminal());
        runtime().tick();
        String scanned = metrics.scrape();
        double submitScans = value(scanned, "mcp_tasks_claim_scan_seconds_count{phase=\"submit\"}");
        assertThat(submitScans).isPositive();
        assertThat(value(scanned, "mcp_tasks_claim_scan_seconds_sum{phase=\"submit\"}"))
                .as("each scan took 30 ms of the clock").isCloseTo(submitScans * 0.030, within());
        assertThat(value(scanned, "mcp_tasks_claim_scan_seconds_bucket{phase=\"submit\",le=\"0.025\"}")).isZero();
        assertThat(value(scanned, "mcp_tasks_claim_scan_seconds_bucket{phase=\"submit\",le=\"0.05\"}"))
                .isEqualTo(submitScans);
        assertThat(value(scanned, "mcp_tasks_claims_total{phase=\"submit\"}")).isEqualTo(4);

        Instant firstPoll = min(created.get(WAIT.toSeconds(), TimeUnit.SECONDS).control().nextControlAt(),
                createdToo.get(WAIT.toSeconds(), TimeUnit.SECONDS).control().nextControlAt());
        assertThat(failed.get(WAIT.toSeconds(), TimeUnit.SECONDS).status().wireName()).isEqualTo("failed");
        String errors = metrics.until(body -> value(body, upstreamErrors("down", "transport")) > 0
                && value(body, upstreamErrors("ref", "error_response")) == 1);
        assertThat(value(errors, upstreamErrors("ref", "timeout"))).isZero();
        assertThat(value(errors, upstreamErrors("ref", "transport"))).isZero();
        assertThat(value(errors, "mcp_tasks_upstream_request_seconds_count{method=\"tools/call\",server=\"ref\"}"))
                .as("three creates").isEqualTo(3);

        // both remote tasks are due for a poll; nothing claims them for 10 s
        clock.advance(Duration.ofSeconds(10));
        String lagging = metrics.scrape();
        assertThat(value(lagging, "mcp_tasks_oldest_due_age_seconds{phase=\"poll\"}"))
                .isEqualTo(Duration.between(firstPoll, clock.now()).toMillis() / 1000.0);
        assertThat(value(lagging, "mcp_tasks_lease_renewals_total")).as("no renewal yet").isZero();

        faults.fail(FencedWrite.RENEW, unrenewed, new RepositoryException("store unavailable"));
        runtime().tick();
        String renewals = metrics.until(body -> value(body, "mcp_tasks_lease_renewals_total") == 1
                && value(body, "mcp_tasks_lease_renewal_failures_total{reason=\"failed\"}") == 1);
        assertThat(value(renewals, "mcp_tasks_lease_renewal_failures_total{reason=\"rejected\"}")).isZero();
        assertThat(value(renewals, "mcp_tasks_lease_renewal_failures_total{reason=\"stalled\"}")).isZero();
        assertThat(value(metrics.until(body -> value(body, "mcp_tasks_ownership_losses_total") == 1),
                "mcp_tasks_lease_renewals_total")).as("the failure counted no renewal").isEqualTo(1);
    }

    /**
     * The webhook's breaker and the dead letters: three tasks cancelled before they were sent notify a receiver that
     * answers the first delivery 410 (dead-lettered at once) and the others 500; two failures in a window of two open
     * the breaker.
     */
    @Test
    void webhookDeliveriesOpenTheBreakerAndDeadLetterWhatIsGone() throws Exception {
        AtomicInteger deliveries = new AtomicInteger();
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(deliveries.incrementAndGet() == 1 ? 410 : 500, -1);
            exchange.close();
        });
        receiver.start();
        opened.add(() -> receiver.stop(0));
        start("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
        TaskService tasks = app.get(TaskService.class);
        for (int i = 0; i < 3; i++) {
            tasks.requestCancel(tasks.submit("ref", "work", "{}").id());
        }
        String before = metrics.scrape();
        assertThat(value(before, "mcp_tasks_webhook_breaker_state{state=\"closed\"}")).isEqualTo(1);
        assertThat(value(before, "mcp_tasks_webhook_breaker_state{state=\"open\"}")).isZero();
        assertThat(value(before, "mcp_tasks_outbox_backlog")).isEqualTo(3);
        assertThat(value(before, "mcp_tasks_dead_letters")).isZero();

        runtime().tick();
        // a delivery's outcome is counted before the breaker hears of it: wait for both
        String delivered = metrics.until(body -> value(body, deliveries("gone")) == 1
                && value(body, deliveries("failed")) == 2
                && value(body, "mcp_tasks_webhook_breaker_state{state=\"open\"}") == 1);
        assertThat(value(delivered, deliveries("delivered"))).isZero();
        assertThat(value(delivered, "mcp_tasks_webhook_breaker_state{state=\"open\"}")).isEqualTo(1);
        assertThat(value(delivered, "mcp_tasks_webhook_breaker_state{state=\"closed\"}")).isZero();
        assertThat(value(delivered, "mcp_tasks_webhook_breaker_state{state=\"half_open\"}")).isZero();

        // the store's figures are read again once they are five seconds old
        clock.advance(Duration.ofSeconds(5));
        String stored = metrics.scrape();
        assertThat(value(stored, "mcp_tasks_dead_letters")).isEqualTo(1);
        assertThat(value(stored, "mcp_tasks_outbox_backlog")).as("the two failed ones wait for a retry")
                .isEqualTo(2);
    }

    private static Offset<Double> within() {
        return Offset.offset(1e-9);
    }

    private static double value(String body, String series) {
        return MetricsScrape.value(body, series);
    }

    private static String upstreamErrors(String server, String kind) {
        return "mcp_tasks_upstream_errors_total{kind=\"" + kind + "\",server=\"" + server + "\"}";
    }

    private static String deliveries(String outcome) {
        return "mcp_tasks_notification_deliveries_total{outcome=\"" + outcome + "\"}";
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private WorkerRuntime runtime() {
        return app.get(WorkerRuntime.class);
    }

    /** The task's row once a committed change (or the row as it is) meets {@code condition}. */
    private CompletableFuture<TaskRecord> rowWhen(TaskId id, Predicate<TaskRecord> condition) {
        CompletableFuture<TaskRecord> met = new CompletableFuture<>();
        Runnable check = () -> memory.find(id).filter(condition).ifPresent(met::complete);
        WorkSubscription subscription = app.get(TaskChanges.class).subscribe(new TaskChangeListener() {
            @Override
            public void changed(TaskId changed) {
                if (changed.equals(id)) {
                    check.run();
                }
            }

            @Override
            public void changedSomewhere() {
                check.run();
            }
        });
        opened.add(subscription::close);
        check.run();
        return met;
    }

    /** The worker assembly with its admin listener; {@code webhook}: the receiver's url, or null for none. */
    private void start(String webhook) throws Exception {
        server = new ReferenceServer(ReferenceServerOptions.defaults().withPollIntervalMs(1000));
        opened.add(server);
        AppRoot root = new AppRoot(config -> List.of(platform(), new HttpTransportModule()));
        app = root.openWorker(config(server.startHttp(0).toString(), webhook), WorkerId.of("metered"));
        opened.add(app);
        AdminListener admin = AdminModules.start(app).orElseThrow();
        opened.add(admin::close);
        metrics = new MetricsScrape(admin.address().getPort());
    }

    private AppConfig config(String ref, String webhook) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("unused.db"));
        // a renewal is due a third of the lease after a claim: later than any step of the tests
        root.putObject("runtime").put("leaseSeconds", 300).put("drainSeconds", 1);
        ObjectNode servers = root.putObject("mcpServers");
        servers.putObject("ref").put("url", ref);
        servers.putObject("down").put("url", "http://127.0.0.1:1/mcp");
        if (webhook != null) {
            root.putObject("notifications").putObject("webhook").put("url", webhook)
                    .put("secret", "webhook-secret-0123456789").putObject("breaker").put("minimumCalls", 2)
                    .put("failureRatePercent", 50);
        }
        root.putObject("admin").put("port", 0);
        return new ConfigLoader(Map.<String, String>of()::get, dir).parse("metered.json",
                JSON.writeValueAsString(root));
    }

    private Module platform() {
        return new InMemoryPlatform(clock, ids, faults, ComposedTaskRepository.of(faults)
                .withClaims(ThirtyMillisecondScans::new), memory.retention(), new InMemoryCredentialStore(clock),
                new InMemoryAuditLog(clock));
    }

    /** The store's claim scans, each taking 30 ms of the manual clock. */
    private final class ThirtyMillisecondScans implements ForwardingTaskClaims {
        private final TaskClaims delegate;

        ThirtyMillisecondScans(TaskClaims delegate) {
            this.delegate = delegate;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public List<ClaimedTask> claimControl(ControlClaimRequest request) {
            clock.advance(SCAN);
            return ForwardingTaskClaims.super.claimControl(request);
        }
    }
}
