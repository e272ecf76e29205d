package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.http.HttpTransportFactory;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerMain;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.stdio.StdioTransportFactory;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The interop scenarios (create, poll to completed, fetch the report; cancel; unknown id) against the third-party
 * server-everything and, with the same assertions, against our reference server, each over stdio and HTTP. The
 * server-everything cases need {@code node} and are skipped loudly without it.
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
    private boolean warmedUp;

    private Endpoint endpoint(Peer peer) throws Exception {
        if (peer.thirdParty) {
            Optional<String> why = EverythingPeer.unavailable();
            if (why.isPresent()) {
                System.err.println("!!!!!!!! SKIPPED: interop with server-everything (" + peer + "): " + why.get()
                        + " !!!!!!!!");
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

    private void warmUp() throws Exception {
        if (!warmedUp) {
            EverythingPeer.warmUp();
            warmedUp = true;
        }
    }

    /** A cold server may not listen yet: retry the first connection (nothing was sent), bounded. */
    private static void connect(McpSession session) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                await(session.connect());
                return;
            } catch (java.util.concurrent.ExecutionException e) {
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
}
