package dev.mcptasks.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.inject.Key;
import com.google.inject.Module;
import com.google.inject.TypeLiteral;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.HttpGateway;
import dev.mcptasks.adapters.http.HttpTransportModule;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.InMemoryPlatform;
import dev.mcptasks.app.assembly.TracingModule;
import dev.mcptasks.app.assembly.Workers;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.app.tracing.ProcessTracing;
import dev.mcptasks.core.runtime.LogNotificationSink;
import dev.mcptasks.core.runtime.RuntimeListener;
import dev.mcptasks.core.runtime.RuntimeSettings;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.Tracing;
import dev.mcptasks.ports.transport.McpTransportFactory;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces from a client through the gateway, the store and the workers to the upstream, with the SDK's in-memory
 * exporter. The gateway stores the task (its submit span continues the client's {@code traceparent}); workers run on
 * controllable clocks and tick by hand; the upstream (the reference server) sits behind a proxy that records the W3C
 * headers each POST carried.
 */
class TraceContinuationEndToEndTest {
    private static final String TOKEN = "alice-token-0123456789abcdef";
    private static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_PARENT = "00-" + CLIENT_TRACE + "-00f067aa0ba902b7-01";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final RuntimeSettings SETTINGS = new RuntimeSettings(LEASE, Duration.ofSeconds(1), 8,
            Duration.ofSeconds(60), Duration.ofSeconds(5), 3, 1024 * 1024, Duration.ofSeconds(5),
            Duration.ofSeconds(1), Duration.ofSeconds(30));
    private static final AttributeKey<String> WORKER = AttributeKey.stringKey("mcp_tasks.worker");
    private static final AttributeKey<Boolean> TAKEOVER = AttributeKey.booleanKey("mcp_tasks.takeover");
    private static final AttributeKey<String> TASK_ID = AttributeKey.stringKey("mcp_tasks.task.id");
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("mcp.method.name");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The store's clock, and worker B's; worker A runs on a clock of its own that stops when it "dies". */
    private final ManualClock clock = new ManualClock(Instant.now());
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final HttpClient http = HttpClient.newHttpClient();
    private final OpenedResources opened = new OpenedResources();
    private AppConfig config;
    private Application gatewayApp;
    private HttpGateway gateway;
    private TraceRecordingProxy upstream;
    private Collection<McpTransportFactory> factories;
    private int nextId = 1;

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    @Test
    void aClientsTraceContinuesThroughATakeoverToEveryUpstreamRequest() throws Exception {
        ProcessTracing tracing = start(true);
        String session = initialize();
        TaskId id = callAsTask(session, CLIENT_PARENT);

        TraceContext stored = store.find(id).orElseThrow().definition().trace();
        assertThat(stored.traceId()).as("the row continues the client's trace").isEqualTo(CLIENT_TRACE);
        SpanData submit = single("submit");
        assertThat(submit.getParentSpanId()).as("the submit span is the client's child").isEqualTo("00f067aa0ba902b7");
        assertThat(stored.spanId()).as("workers continue from the submit span").isEqualTo(submit.getSpanId());

        // A claims and sends the create; its answer's write waits at the gate while A, paused, renews nothing
        GatedSubmitWrites gate = new GatedSubmitWrites(store);
        TaskRepository gated = ComposedTaskRepository.of(store).withClaims(claims -> gate);
        ManualClock pausedClock = new ManualClock(clock.now());
        Worker a = worker("worker-a", gated, pausedClock, tracing.tracing());
        a.runtime.tick();
        assertThat(gate.reached.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        clock.advance(LEASE.plusSeconds(1));

        // B takes the expired submit claim over and, under atLeastOnce, sends the create again
        Worker b = worker("worker-b", store, clock, tracing.tracing());
        b.runtime.tick();
        b.finished(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        gate.release.countDown();
        a.finished(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        TaskRecord row = store.find(id).orElseThrow();
        assertThat(row.state().remoteTaskId()).as("B's create was stored").isNotNull();
        List<TraceRecordingProxy.Seen> creates = upstream.seen("tools/call");
        assertThat(creates).as("A's create and B's").hasSize(2);
        assertThat(creates).allSatisfy(create -> {
            assertThat(TraceContext.parse(create.traceparent(), null).traceId()).isEqualTo(CLIENT_TRACE);
            assertThat(create.meta().path("traceparent").asText()).isEqualTo(create.traceparent());
        });

        List<SpanData> claims = spans("claim submit");
        assertThat(claims).extracting(span -> span.getAttributes().get(WORKER))
                .containsExactlyInAnyOrder("worker-a", "worker-b");
        assertThat(claims).allSatisfy(claim -> {
            assertThat(claim.getTraceId()).isEqualTo(CLIENT_TRACE);
            assertThat(claim.getParentSpanId()).as("from the row, not from memory").isEqualTo(submit.getSpanId());
            assertThat(claim.getAttributes().get(TASK_ID)).isEqualTo(id.value());
            assertThat(claim.getKind()).isEqualTo(SpanKind.CONSUMER);
        });
        SpanData claimA = claimOf(claims, "worker-a");
        SpanData claimB = claimOf(claims, "worker-b");
        assertThat(claimA.getAttributes().get(TAKEOVER)).isFalse();
        assertThat(claimB.getAttributes().get(TAKEOVER)).isTrue();
        assertThat(claimA.getStatus().getStatusCode()).as("A's write was refused by the fence").isEqualTo(StatusCode.ERROR);
        assertThat(claimB.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);

        // each upstream request is a client span of its claim, and the upstream got that span's context
        List<SpanData> requests = spans("tools/call");
        assertThat(requests).hasSize(2).allSatisfy(request -> {
            assertThat(request.getTraceId()).isEqualTo(CLIENT_TRACE);
            assertThat(request.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(request.getAttributes().get(METHOD)).isEqualTo("tools/call");
        });
        assertThat(requests).extracting(SpanData::getParentSpanId)
                .containsExactlyInAnyOrder(claimA.getSpanId(), claimB.getSpanId());
        assertThat(creates).extracting(create -> TraceContext.parse(create.traceparent(), null).spanId())
                .containsExactlyInAnyOrderElementsOf(requests.stream().map(SpanData::getSpanId).toList());

        List<SpanData> writes = spans("write apply_submitted");
        assertThat(writes).extracting(SpanData::getParentSpanId)
                .containsExactlyInAnyOrder(claimA.getSpanId(), claimB.getSpanId());
        assertThat(writes).filteredOn(write -> write.getParentSpanId().equals(claimA.getSpanId()))
                .singleElement().satisfies(write -> assertThat(write.getStatus().getStatusCode())
                        .isEqualTo(StatusCode.ERROR));
    }

    @Test
    void aTaskSubmittedWithoutAContextStartsARootTraceAtSubmitWhichTheWorkerContinues() throws Exception {
        ProcessTracing tracing = start(true);
        TaskId id = gatewayApp.get(TaskService.class).submit("ref", "work", "{\"durationMs\":60000}").id();

        TraceContext stored = store.find(id).orElseThrow().definition().trace();
        SpanData submit = single("submit");
        assertThat(submit.getParentSpanContext().isValid()).as("a root").isFalse();
        assertThat(stored.traceId()).isEqualTo(submit.getTraceId());

        Worker worker = worker("worker-b", store, clock, tracing.tracing());
        worker.runtime.tick();
        worker.finished(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(single("claim submit").getTraceId()).isEqualTo(submit.getTraceId());
        assertThat(single("tools/call").getTraceId()).isEqualTo(submit.getTraceId());
        assertThat(upstream.seen("tools/call")).singleElement().satisfies(create -> assertThat(
                TraceContext.parse(create.traceparent(), null).traceId()).isEqualTo(submit.getTraceId()));
    }

    @Test
    void withTracingOffNothingIsRecordedAndAClientsContextIsHandedOnUnchanged() throws Exception {
        ProcessTracing tracing = start(false);
        String session = initialize();
        TaskId traced = callAsTask(session, CLIENT_PARENT);
        TaskId untraced = callAsTask(session, null);

        assertThat(store.find(traced).orElseThrow().definition().trace().traceparent()).isEqualTo(CLIENT_PARENT);
        assertThat(store.find(untraced).orElseThrow().definition().trace()).isNull();
        Worker worker = worker("worker-b", store, clock, tracing.tracing());
        worker.runtime.tick();
        worker.finished(traced).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        worker.finished(untraced).get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(store.find(traced).orElseThrow().state().remoteTaskId()).isNotNull();
        assertThat(store.find(untraced).orElseThrow().state().remoteTaskId()).isNotNull();
        assertThat(upstream.seen("tools/call")).extracting(TraceRecordingProxy.Seen::traceparent)
                .containsExactlyInAnyOrder(CLIENT_PARENT, null);
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    /** Starts the upstream, its proxy and the gateway (no worker); {@code on}: tracing to the in-memory exporter. */
    private ProcessTracing start(boolean on) throws Exception {
        ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true)
                .withGetStream(false));
        opened.add(server);
        upstream = TraceRecordingProxy.start(server.startHttp(0));
        opened.add(upstream);
        config = config(upstream.uri());
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        opened.add(sdk);
        ProcessTracing tracing = on ? ProcessTracing.over(sdk) : ProcessTracing.OFF;
        AppRoot root = new AppRoot(ignored -> List.of(platform(), new HttpTransportModule(),
                new TracingModule(tracing)));
        gatewayApp = root.openGateway(config, null);
        opened.add(gatewayApp);
        gateway = HttpGateway.start(gatewayApp.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                gatewayApp.get(FrontDoor.class), clock);
        opened.add(gateway::close);
        factories = gatewayApp.injector()
                .getInstance(Key.get(new TypeLiteral<Map<String, McpTransportFactory>>() {})).values();
        return tracing;
    }

    private Module platform() {
        return InMemoryPlatform.of(clock, ids, store);
    }

    private AppConfig config(URI endpoint) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("unused.db"));
        root.putObject("mcpServers").putObject("ref").put("url", endpoint.toString())
                .put("submitPolicy", "atLeastOnce");
        root.putObject("gateway").putObject("principals").put("alice", "${env:ALICE}");
        return new ConfigLoader(Map.of("ALICE", TOKEN)::get, dir).parse("gateway.json",
                JSON.writeValueAsString(root));
    }

    /** A worker that ticks by hand, on {@code workerClock}, writing through {@code repository}. */
    private Worker worker(String name, TaskRepository repository, ManualClock workerClock, Tracing tracing) {
        McpSessions sessions = Workers.sessions(config, factories, workerClock, Metrics.NONE, tracing);
        ExecutorService executor = Workers.executor("trace-" + name);
        Worker worker = new Worker();
        worker.runtime = new WorkerRuntime(WorkerId.of(name), SETTINGS, repository, Workers.drivers(config, sessions),
                config.serverDirectory(), workerClock, () -> 0.5, ids, executor, new LogNotificationSink(), worker,
                tracing);
        opened.add(() -> {
            sessions.close();
            executor.shutdownNow();
        });
        return worker;
    }

    private String initialize() throws Exception {
        HttpResponse<String> response = post(null, null, "initialize", "{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
        assertThat(response.statusCode()).isEqualTo(200);
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    /** A task-mode call of the reference server's long task, with {@code traceparent} as its header when not null. */
    private TaskId callAsTask(String session, String traceparent) throws Exception {
        HttpResponse<String> response = post(session, traceparent, "tools/call",
                "{\"name\":\"ref__work\",\"arguments\":{\"durationMs\":60000},\"task\":{\"ttl\":60000}}");
        JsonNode task = JSON.readTree(response.body()).path("result").path("task");
        assertThat(task.path("taskId").isTextual()).as(response.body()).isTrue();
        return TaskId.of(task.path("taskId").asText());
    }

    private HttpResponse<String> post(String session, String traceparent, String method, String params)
            throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method + "\",\"params\":"
                + params + "}";
        HttpRequest.Builder request = HttpRequest.newBuilder(gateway.endpoint()).timeout(WAIT)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("Authorization", "Bearer " + TOKEN).header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<SpanData> spans(String name) {
        return exporter.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
    }

    private SpanData single(String name) {
        List<SpanData> found = spans(name);
        assertThat(found).as("spans named " + name).hasSize(1);
        return found.get(0);
    }

    private static SpanData claimOf(List<SpanData> claims, String worker) {
        return claims.stream().filter(span -> worker.equals(span.getAttributes().get(WORKER))).findFirst()
                .orElseThrow();
    }

    /** A hand-ticked runtime and the operations it finished, by task. */
    private static final class Worker implements RuntimeListener {
        WorkerRuntime runtime;
        private final Map<TaskId, CompletableFuture<Void>> finished = new ConcurrentHashMap<>();

        CompletableFuture<Void> finished(TaskId task) {
            return finished.computeIfAbsent(task, key -> new CompletableFuture<>());
        }

        @Override
        public void operationFinished(TaskId task) {
            finished(task).complete(null);
        }
    }

    /** The store, with the write of a created task held until {@link #release} opens. */
    private static final class GatedSubmitWrites implements ForwardingTaskClaims {
        private final TaskClaims delegate;

        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        GatedSubmitWrites(TaskClaims store) {
            this.delegate = store;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            reached.countDown();
            try {
                release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ForwardingTaskClaims.super.applySubmitted(claim, write);
        }
    }
}
