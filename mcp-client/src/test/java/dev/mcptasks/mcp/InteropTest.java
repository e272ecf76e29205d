package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.stdio.StdioTransportFactory;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.InputRound;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerMain;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.reference.ServedGenerations;
import dev.mcptasks.testkit.ManualClock;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The interop scenarios (create, poll to completed, fetch the report; cancel; unknown id) against the third-party
 * server-everything and, with the same assertions, against our reference server, each over stdio and HTTP. The
 * server-everything cases need {@code node} and are skipped loudly without it. The 2026-07-28 scenarios (the tasks
 * extension) run against the reference server in its 2026-07-28 and dual modes, over stdio and HTTP, with no pin:
 * the client discovers the generation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InteropTest {
    private static final String SERVER = "peer";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    /** A peer and the transport that reaches it. */
    enum Peer {
        EVERYTHING_STDIO(true), EVERYTHING_HTTP(true), REFERENCE_STDIO(false), REFERENCE_HTTP(false);

        final boolean thirdParty;

        Peer(boolean thirdParty) {
            this.thirdParty = thirdParty;
        }
    }

    /** A connected driver and how the peer names its research task tool. */
    private record Endpoint(McpSessions sessions, NativeTasksDriver driver, String tool, boolean everything) {
        String arguments(String topic, boolean slow) {
            if (everything) {
                return "{\"topic\":\"" + topic + "\"}";
            }
            // the reference server's work tool stands in: ~1.5 s, a markdown report as its text result
            return "{\"durationMs\":" + (slow ? 600000 : 1500) + ",\"result\":\"# Research Report: " + topic + "\"}";
        }
    }

    private final Map<Peer, Endpoint> endpoints = new EnumMap<>(Peer.class);
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final Set<Peer> announcedSkips = EnumSet.noneOf(Peer.class);
    private boolean warmedUp;

    private Endpoint endpoint(Peer peer) throws Exception {
        if (peer.thirdParty) {
            Optional<String> why = EverythingPeer.unavailable();
            if (why.isPresent() && announcedSkips.add(peer)) {
                loud("!!!!!!!! SKIPPED: interop with server-everything (" + peer + "): " + why.get() + " !!!!!!!!");
            }
            Assumptions.assumeTrue(why.isEmpty(), "interop with server-everything skipped: " + why.orElse(""));
        }
        Endpoint existing = endpoints.get(peer);
        if (existing != null) {
            return existing;
        }
        McpServerSpec spec = switch (peer) {
            case EVERYTHING_STDIO -> {
                warmUp();
                yield EverythingPeer.stdioSpec(SERVER);
            }
            case EVERYTHING_HTTP -> {
                warmUp();
                EverythingPeer.Http http = new EverythingPeer.Http();
                cleanup.add(http);
                yield http.spec(SERVER);
            }
            case REFERENCE_STDIO -> Endpoints.javaStdio(SERVER, ReferenceServerMain.class, List.of("--stdio"), 0);
            case REFERENCE_HTTP -> {
                ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults());
                cleanup.add(server);
                yield McpServerSpec.http(SERVER, server.startHttp(0), Map.of());
            }
        };
        McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(spec)),
                List.of(new StdioTransportFactory(), new HttpTransportFactory()), new ManualClock(), "interop");
        cleanup.add(0, sessions);
        connect(sessions.session(SERVER).orElseThrow());
        Endpoint endpoint = new Endpoint(sessions, new NativeTasksDriver(sessions),
                peer.thirdParty ? "simulate-research-query" : "work", peer.thirdParty);
        endpoints.put(peer, endpoint);
        return endpoint;
    }

    /** Prints to the test JVM's own stderr as well, which Maven shows even when test output goes to files. */
    private static void loud(String line) {
        System.err.println(line);
        PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
                StandardCharsets.UTF_8);
        console.println(line);
    }

    private void warmUp() throws Exception {
        if (!warmedUp) {
            EverythingPeer.warmUp();
            warmedUp = true;
        }
    }

    /** A cold server may not listen yet: retry the first connection (nothing was sent), bounded. */
    static void connect(McpSession session) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                await(session.connect());
                return;
            } catch (ExecutionException e) {
                boolean notSent = e.getCause() instanceof McpTransportFailure failure && !failure.sent();
                if (!notSent || System.nanoTime() > end) {
                    throw e;
                }
                CompletableFuture.runAsync(() -> { },
                        CompletableFuture.delayedExecutor(250, TimeUnit.MILLISECONDS)).get();
            }
        }
    }

    @AfterAll
    void closeAll() throws Exception {
        for (AutoCloseable closeable : cleanup) {
            closeable.close();
        }
    }

    private static RemoteTaskRef ref(SubmitCall call, SubmitResult created) {
        return new RemoteTaskRef(call.taskId(), call.serverName(), call.toolName(),
                created.snapshot().remoteTaskId());
    }

    private static SubmitCall call(Endpoint endpoint, String topic, boolean slow) {
        return new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER, endpoint.tool(),
                endpoint.arguments(topic, slow), 60_000L);
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void createsATaskPollsItToCompletedAndFetchesTheReport(Peer peer) throws Exception {
        Endpoint endpoint = endpoint(peer);
        SubmitCall call = call(endpoint, "durable java tasks", false);

        SubmitResult created = await(endpoint.driver().submit(call));

        assertThat(created.snapshot().status()).isEqualTo(TaskStatus.WORKING);
        assertThat(created.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(created.snapshot().pollAfter()).isNotNull();
        assertThat(created.snapshot().remoteTtlMs()).isEqualTo(peer.thirdParty ? 300_000L : 60_000L);
        RemoteTaskSnapshot done = Polling.untilTerminal(endpoint.driver(), ref(call, created), DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("# Research Report").contains("durable java tasks");
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void aPlainToolRunsAsADirectCall(Peer peer) throws Exception {
        Endpoint endpoint = endpoint(peer);
        SubmitCall call = new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER, "echo",
                peer.thirdParty ? "{\"message\":\"hello direct\"}" : "{\"text\":\"hello direct\"}", null);

        SubmitResult done = await(endpoint.driver().submit(call));

        assertThat(done.createdTask()).isFalse();
        assertThat(done.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.snapshot().resultJson()).contains("hello direct");
    }

    @ParameterizedTest
    @EnumSource(value = Peer.class, names = {"EVERYTHING_STDIO", "EVERYTHING_HTTP"})
    void aLongPlainToolWithProgressRunsAsADirectCall(Peer peer) throws Exception {
        Endpoint endpoint = endpoint(peer);
        SubmitCall call = new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER,
                "trigger-long-running-operation", "{\"duration\":2,\"steps\":4}", null);

        List<CallProgress> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
        SubmitObserver observer = new SubmitObserver() {
            @Override
            public void progress(CallProgress update) {
                progress.add(update);
            }
        };

        SubmitResult done = await(endpoint.driver().submit(call, SendPermit.ALWAYS, observer));

        assertThat(done.createdTask()).isFalse();
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.snapshot().resultJson()).contains("Long running operation completed");
        // the progress for our token, one per step, each before the answer
        assertThat(progress).extracting(CallProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0);
        assertThat(progress).extracting(CallProgress::total).containsOnly(4.0);
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void cancelsATask(Peer peer) throws Exception {
        Endpoint endpoint = endpoint(peer);
        SubmitCall call = call(endpoint, "to be cancelled", true);
        RemoteTaskRef ref = ref(call, await(endpoint.driver().submit(call)));

        assertThat(await(endpoint.driver().cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(endpoint.driver().status(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(endpoint.driver().cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @ParameterizedTest
    @EnumSource(Peer.class)
    void anUnknownTaskIdIsRemoteTaskLost(Peer peer) throws Exception {
        Endpoint endpoint = endpoint(peer);
        RemoteTaskRef missing = new RemoteTaskRef(TaskId.of("t-missing"), SERVER, endpoint.tool(),
                "00000000000000000000000000000000");

        assertThat(remoteFailure(endpoint.driver().status(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(remoteFailure(endpoint.driver().cancel(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    /** The reference server serving the 2026-07-28 generation alone or beside 2025-11-25, and how it is reached. */
    enum Peer2026 {
        V2026_STDIO(ServedGenerations.V2026_07_28, false), V2026_HTTP(ServedGenerations.V2026_07_28, true),
        DUAL_STDIO(ServedGenerations.DUAL, false), DUAL_HTTP(ServedGenerations.DUAL, true);

        final ServedGenerations generation;
        final boolean http;

        Peer2026(ServedGenerations generation, boolean http) {
            this.generation = generation;
            this.http = http;
        }
    }

    /** A connected driver of one modern peer, and its URL when it is reached over HTTP. */
    private record Endpoint2026(McpSessions sessions, NativeTasksDriver driver, URI url) {}

    private final Map<Peer2026, Endpoint2026> v2026Endpoints = new EnumMap<>(Peer2026.class);

    private Endpoint2026 endpoint(Peer2026 peer) throws Exception {
        Endpoint2026 existing = v2026Endpoints.get(peer);
        if (existing != null) {
            return existing;
        }
        McpServerSpec spec;
        URI url = null;
        if (peer.http) {
            ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults()
                    .withGeneration(peer.generation).withPollIntervalMs(50));
            cleanup.add(server);
            url = server.startHttp(0);
            spec = McpServerSpec.http(SERVER, url, Map.of());
        } else {
            spec = Endpoints.javaStdio(SERVER, ReferenceServerMain.class, List.of("--stdio", "--generation",
                    peer.generation == ServedGenerations.DUAL ? "dual" : "2026-07-28", "--poll-interval-ms", "50"), 0);
        }
        McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(spec)),
                List.of(new StdioTransportFactory(), new HttpTransportFactory()), new ManualClock(), "interop");
        cleanup.add(0, sessions);
        connect(sessions.session(SERVER).orElseThrow());
        Endpoint2026 endpoint = new Endpoint2026(sessions, new NativeTasksDriver(sessions), url);
        v2026Endpoints.put(peer, endpoint);
        return endpoint;
    }

    private static SubmitCall work(String arguments) {
        return new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER, "work", arguments, 60_000L);
    }

    private static RemoteTaskRef v2026Ref(SubmitCall call, SubmitResult created) {
        return new RemoteTaskRef(call.taskId(), call.serverName(), call.toolName(),
                created.snapshot().remoteTaskId(), created.protocolVersion());
    }

    /** Polls (paced by the server's hint, bounded) until the task reports {@code wanted}. */
    private static RemoteTaskSnapshot untilStatus(NativeTasksDriver driver, RemoteTaskRef ref, TaskStatus wanted)
            throws Exception {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (true) {
            RemoteTaskSnapshot snapshot = await(driver.status(ref));
            if (snapshot.status() == wanted) {
                return snapshot;
            }
            assertThat(snapshot.status().isTerminal()).as("ended %s while waiting for %s", snapshot.status(), wanted)
                    .isFalse();
            assertThat(System.nanoTime()).as("still %s after %s", snapshot.status(), DEADLINE).isLessThan(end);
            long waitMs = snapshot.pollAfter() == null ? 200 : Math.max(20, snapshot.pollAfter().toMillis());
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(waitMs, TimeUnit.MILLISECONDS))
                    .get(30, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026TheServerIsDiscoveredAndATaskRunsToItsInlineResult(Peer2026 peer) throws Exception {
        Endpoint2026 endpoint = endpoint(peer);
        McpHandshake handshake = endpoint.sessions().session(SERVER).orElseThrow().handshake().orElseThrow();
        assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(handshake.capabilities().tasksExtension()).isTrue();
        SubmitCall call = work("{\"durationMs\":300,\"result\":\"# Research Report: modern\"}");

        SubmitResult created = await(endpoint.driver().submit(call));

        assertThat(created.protocolVersion()).isEqualTo("2026-07-28");
        assertThat(created.createdTask()).isTrue();
        assertThat(created.snapshot().pollAfter()).isEqualTo(Duration.ofMillis(50));
        RemoteTaskSnapshot done = Polling.untilTerminal(endpoint.driver(), v2026Ref(call, created), DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("# Research Report: modern");
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026AToolThatNeedsNoTaskCompletesAtOnce(Peer2026 peer) throws Exception {
        SubmitCall call = new SubmitCall(TaskId.of("t-echo"), SERVER, "echo", "{\"text\":\"hi there\"}", null);
        SubmitResult result = await(endpoint(peer).driver().submit(call));
        assertThat(result.createdTask()).isFalse();
        assertThat(result.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(result.snapshot().resultJson()).contains("hi there");
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026FailuresComeAsAnErrorOrAsAToolError(Peer2026 peer) throws Exception {
        NativeTasksDriver driver = endpoint(peer).driver();
        SubmitCall error = work("{\"durationMs\":0,\"fail\":true,\"failMessage\":\"upstream 503\"}");
        RemoteTaskSnapshot failed = Polling.untilTerminal(driver, v2026Ref(error, await(driver.submit(error))),
                DEADLINE);
        assertThat(failed.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(failed.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(failed.error()).isEqualTo("error -32603: upstream 503");

        SubmitCall toolError = work("{\"durationMs\":0,\"fail\":true,\"failAs\":\"isError\","
                + "\"failMessage\":\"quota exceeded\"}");
        RemoteTaskSnapshot isError = Polling.untilTerminal(driver,
                v2026Ref(toolError, await(driver.submit(toolError))), DEADLINE);
        assertThat(isError.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(isError.error()).contains("quota exceeded");
        assertThat(isError.resultJson()).contains("\"isError\":true");
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026InputIsRequestedAnsweredWithTasksUpdateAndTheTaskCompletes(Peer2026 peer) throws Exception {
        NativeTasksDriver driver = endpoint(peer).driver();
        SubmitCall call = work("{\"durationMs\":100,\"askInput\":\"Deploy to prod?\"}");
        RemoteTaskRef ref = v2026Ref(call, await(driver.submit(call)));

        RemoteTaskSnapshot waiting = untilStatus(driver, ref, TaskStatus.INPUT_REQUIRED);
        JsonNode requests = FakeServer.json(waiting.inputRequiredJson());
        String key = requests.fieldNames().next();
        assertThat(requests.path(key).path("method").asText()).isEqualTo("elicitation/create");
        assertThat(requests.path(key).toString()).contains("Deploy to prod?");

        await(driver.answer(ref, "{\"" + key + "\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}",
                () -> true));

        RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref, DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains(key).contains("\"ok\":true");
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026AnInputRoundBeforeTheTaskIsAnsweredByCallingAgain(Peer2026 peer) throws Exception {
        NativeTasksDriver driver = endpoint(peer).driver();
        SubmitCall first = work("{\"durationMs\":100,\"approveFirst\":\"Run the report?\"}");

        SubmitResult round = await(driver.submit(first));

        assertThat(round.isInputRound()).isTrue();
        assertThat(round.requestState()).isNotBlank();
        assertThat(round.snapshot().inputRequiredJson()).contains("Run the report?");
        SubmitCall again = new SubmitCall(first.taskId(), SERVER, "work", first.argumentsJson(), 60_000L,
                new InputRound(round.requestState(), "{\"approve\":{\"action\":\"accept\",\"content\":{}}}"));
        SubmitResult created = await(driver.submit(again));
        assertThat(created.createdTask()).isTrue();
        RemoteTaskSnapshot done = Polling.untilTerminal(driver, v2026Ref(again, created), DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("approval").contains("accept");
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026CancelIsAcknowledgedAndReadBackEvenWhenItLosesTheRace(Peer2026 peer) throws Exception {
        NativeTasksDriver driver = endpoint(peer).driver();
        SubmitCall slow = work("{\"durationMs\":600000}");
        RemoteTaskRef ref = v2026Ref(slow, await(driver.submit(slow)));
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(driver.status(ref)).status()).isEqualTo(TaskStatus.CANCELLED);

        SubmitCall ignored = work("{\"durationMs\":300,\"cancelIgnored\":true}");
        RemoteTaskRef racing = v2026Ref(ignored, await(driver.submit(ignored)));
        RemoteTaskSnapshot afterCancel = await(driver.cancel(racing));
        assertThat(afterCancel.status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
        assertThat(Polling.untilTerminal(driver, racing, DEADLINE).status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @ParameterizedTest
    @EnumSource(Peer2026.class)
    void v2026AnUnknownTaskIsLost(Peer2026 peer) throws Exception {
        NativeTasksDriver driver = endpoint(peer).driver();
        RemoteTaskRef missing = new RemoteTaskRef(TaskId.of("t-missing"), SERVER, "work",
                "00000000000000000000000000000000", "2026-07-28");
        assertThat(remoteFailure(driver.status(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(remoteFailure(driver.cancel(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(remoteFailure(driver.answer(missing, "{}", () -> true)).failure())
                .isEqualTo(RemoteFailure.TASK_LOST);
    }

    @org.junit.jupiter.api.Test
    void dualA2025TaskStaysOnThe2025SessionWhileNewTasksGo2026() throws Exception {
        Endpoint2026 dual = endpoint(Peer2026.DUAL_HTTP);
        McpSessions v2025Sessions = new McpSessions(List.of(new McpServerSettings(
                McpServerSpec.http(SERVER, dual.url(), Map.of()), ReferenceHarness.TIMEOUT, false,
                ProtocolGeneration.TASKS_2025_11_25)), List.of(new HttpTransportFactory()), new ManualClock(),
                "interop-legacy");
        cleanup.add(0, v2025Sessions);
        // a task created earlier under 2025-11-25 (before the server moved on, or under a pin)
        SubmitCall old = work("{\"durationMs\":300,\"result\":\"legacy report\"}");
        SubmitResult oldCreated = await(new NativeTasksDriver(v2025Sessions).submit(old));
        assertThat(oldCreated.protocolVersion()).isEqualTo("2025-11-25");

        SubmitCall fresh = work("{\"durationMs\":300,\"result\":\"modern report\"}");
        SubmitResult freshCreated = await(dual.driver().submit(fresh));

        assertThat(freshCreated.protocolVersion()).isEqualTo("2026-07-28");
        RemoteTaskSnapshot oldDone = Polling.untilTerminal(dual.driver(), v2026Ref(old, oldCreated), DEADLINE);
        RemoteTaskSnapshot freshDone = Polling.untilTerminal(dual.driver(), v2026Ref(fresh, freshCreated), DEADLINE);
        assertThat(oldDone.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(oldDone.resultJson()).contains("legacy report");
        assertThat(freshDone.resultJson()).contains("modern report");
        assertThat(dual.sessions().session(SERVER).orElseThrow().generation())
                .contains(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        McpSession v2025OfDual = await(dual.sessions().speaking(dual.sessions().session(SERVER).orElseThrow(),
                ProtocolGeneration.TASKS_2025_11_25));
        assertThat(v2025OfDual.handshake().orElseThrow().generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        // the 2025 generation takes no answers through mcp-tasks
        assertThat(remoteFailure(dual.driver().answer(v2026Ref(old, oldCreated), "{}", () -> true)).failure())
                .isEqualTo(RemoteFailure.UNSUPPORTED);
    }

    @org.junit.jupiter.api.Test
    void v2026APinnedClientSkipsTheProbeAndReadsABareEmbeddedResult() throws Exception {
        ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults()
                .withGeneration(ServedGenerations.V2026_07_28).withPollIntervalMs(50).withBareResult(true));
        cleanup.add(server);
        McpSessions sessions = new McpSessions(List.of(new McpServerSettings(
                McpServerSpec.http(SERVER, server.startHttp(0), Map.of()), ReferenceHarness.TIMEOUT, false,
                ProtocolGeneration.TASKS_EXTENSION_2026_07_28)), List.of(new HttpTransportFactory()),
                new ManualClock(), "interop-pinned");
        cleanup.add(0, sessions);
        NativeTasksDriver driver = new NativeTasksDriver(sessions);
        SubmitCall call = work("{\"durationMs\":200,\"result\":\"bare report\"}");

        SubmitResult created = await(driver.submit(call));

        assertThat(sessions.session(SERVER).orElseThrow().handshake().orElseThrow().capabilitiesKnown()).isFalse();
        assertThat(created.protocolVersion()).isEqualTo("2026-07-28");
        RemoteTaskSnapshot done = Polling.untilTerminal(driver, v2026Ref(call, created), DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("bare report").doesNotContain("resultType");
    }

    /**
     * A reference server over stdio (started with {@code flags}) or HTTP (in-process with {@code options}, the same
     * settings); its sessions are closed after the test.
     */
    private McpSessions v2026Only(boolean http, ProtocolGeneration pin, ReferenceServerOptions options,
            List<String> flags) throws Exception {
        McpServerSpec spec;
        if (http) {
            ReferenceServer server = new ReferenceServer(options);
            cleanup.add(server);
            spec = McpServerSpec.http(SERVER, server.startHttp(0), Map.of());
        } else {
            List<String> args = new ArrayList<>(List.of("--stdio"));
            args.addAll(flags);
            spec = Endpoints.javaStdio(SERVER, ReferenceServerMain.class, args, 0);
        }
        McpSessions sessions = new McpSessions(List.of(new McpServerSettings(spec, ReferenceHarness.TIMEOUT, false,
                pin)), List.of(new StdioTransportFactory(), new HttpTransportFactory()), new ManualClock(),
                "interop-modern-only");
        cleanup.add(0, sessions);
        return sessions;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void v2026ATaskPastItsTtlIsLost(boolean http) throws Exception {
        NativeTasksDriver driver = new NativeTasksDriver(v2026Only(http, null, ReferenceServerOptions.defaults()
                .withGeneration(ServedGenerations.V2026_07_28).withTtlOverrideMs(300L).withPollIntervalMs(50),
                List.of("--generation", "2026-07-28", "--ttl-ms", "300", "--poll-interval-ms", "50")));
        SubmitCall call = work("{\"durationMs\":50}");
        RemoteTaskRef ref = v2026Ref(call, await(driver.submit(call)));

        long end = System.nanoTime() + DEADLINE.toNanos();
        RemoteCallException lost = null;
        while (lost == null) {
            try {
                driver.status(ref).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                lost = remoteFailure(CompletableFuture.failedFuture(e.getCause()));
            }
            assertThat(System.nanoTime()).as("the task outlived its ttl by %s", DEADLINE).isLessThan(end);
            CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS))
                    .get(30, TimeUnit.SECONDS);
        }

        assertThat(lost.failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(lost.getMessage()).contains("Task has expired");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void v2026AServerThatServesOnlyTheExtensionRefusesAClientPinnedTo2025(boolean http) throws Exception {
        NativeTasksDriver driver = new NativeTasksDriver(v2026Only(http, ProtocolGeneration.TASKS_2025_11_25,
                ReferenceServerOptions.defaults().withGeneration(ServedGenerations.V2026_07_28),
                List.of("--generation", "2026-07-28")));

        RemoteCallException refused = remoteFailure(driver.submit(work("{\"durationMs\":50}")));

        assertThat(refused.getMessage()).contains("2026-07-28");
        assertThat(refused.failure()).isIn(RemoteFailure.REFUSED, RemoteFailure.NOT_SENT);
    }
}
