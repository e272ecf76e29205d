package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Both drivers ask the caller's {@link SendPermit} before every request of an operation after the first: a worker
 * paused past its lease (SIGSTOP, then SIGCONT) whose first step is answered only then sends no second step. The
 * permit is the runtime's: the locally confirmed lease on a monotonic clock of its own (the sessions' clock is
 * another one, so no request timeout fires while the worker is "paused").
 */
class SendPermitTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final String WORKING = "{\"taskId\":\"r1\",\"status\":\"working\",\"ttl\":null,"
            + "\"createdAt\":\"2026-12-02T11:29:08.492Z\",\"lastUpdatedAt\":\"2026-12-02T11:29:08.492Z\"}";
    private static final String COMPLETED = WORKING.replace("working", "completed");

    private final FakeServer server = new FakeServer();
    private final McpSessions sessions = new McpSessions(
            List.of(new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(5), false)), List.of(server),
            new ManualClock(), "test");
    private final NativeTasksDriver nativeDriver = new NativeTasksDriver(sessions);
    private final OrdinaryToolsDriver ordinary = new OrdinaryToolsDriver(sessions,
            Map.of("fake", new OrdinaryToolset("start", "check", "stop")));
    private final RemoteTaskRef ref = new RemoteTaskRef(TaskId.of("t1"), "fake", "work", "r1");
    /** The worker's monotonic clock; the lease is confirmed until {@code confirmedUntil}. */
    private final ManualClock worker = new ManualClock();
    private final long confirmedUntil = worker.nanoTime() + LEASE.toNanos();
    private final SendPermit lease = () -> worker.nanoTime() < confirmedUntil;
    /** Requests whose answer the fake server holds, by method. */
    private final List<JsonNode> held = new CopyOnWriteArrayList<>();

    SendPermitTest() {
        server.on("tools/list", request -> json("{\"tools\":[{\"name\":\"work\",\"execution\":"
                + "{\"taskSupport\":\"required\"}}]}"));
        server.on("tasks/result", request -> json("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"));
        server.on("tasks/get", request -> json(COMPLETED));
    }

    @AfterEach
    void close() {
        sessions.close();
    }

    /** The server keeps the answer to {@code method} until {@link #answer} delivers it. */
    private void hold(String method) {
        server.on(method, (transport, request) -> {
            held.add(request);
            return null;
        });
    }

    /** The worker resumes past its lease, then the held request is answered. */
    private void pausedPastTheLeaseThenAnswered(String answer) throws InterruptedException {
        TaskPeerScript.eventually(() -> !held.isEmpty(), "the first step was sent");
        assertThat(held).hasSize(1);
        worker.advance(LEASE.plusSeconds(1)); // SIGSTOP past the lease, then SIGCONT
        server.last().reply(held.get(0).get("id").asText(), json(answer));
    }

    private static void refused(CompletableFuture<?> operation) {
        RemoteCallException refused = remoteFailure(operation);
        assertThat(refused.failure()).isEqualTo(RemoteFailure.PERMIT_REFUSED);
    }

    @Test
    void nativeStatusFetchesTheResultOnlyWhileTheLeaseIsConfirmed() throws Exception {
        RemoteTaskSnapshot done = await(nativeDriver.status(ref, lease));
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(server.last().sent("tasks/result")).as("a confirmed lease lets the second step go").hasSize(1);

        hold("tasks/get");
        CompletableFuture<RemoteTaskSnapshot> status = nativeDriver.status(ref, lease);
        pausedPastTheLeaseThenAnswered(COMPLETED);

        refused(status);
        assertThat(server.last().sent("tasks/result")).as("no tasks/result after the lease lapsed").hasSize(1);
    }

    @Test
    void nativeCancelAnsweredTerminalAfterTheLeaseLapsedReadsNothingMore() throws Exception {
        hold("tasks/cancel");
        CompletableFuture<RemoteTaskSnapshot> cancel = nativeDriver.cancel(ref, lease);
        pausedPastTheLeaseThenAnswered(COMPLETED);

        refused(cancel);
        assertThat(server.last().sent("tasks/get")).isEmpty();
        assertThat(server.last().sent("tasks/result")).isEmpty();
    }

    @Test
    void nativeSubmitSendsNoCreateAfterTheLeaseLapsedDuringTheToolLookup() throws Exception {
        server.on("tools/call", request -> json("{\"task\":" + WORKING + "}"));
        hold("tools/list");
        CompletableFuture<?> submit = nativeDriver.submit(new SubmitCall(TaskId.of("t1"), "fake", "work", "{}",
                null), lease);
        pausedPastTheLeaseThenAnswered("{\"tools\":[{\"name\":\"work\",\"execution\":"
                + "{\"taskSupport\":\"required\"}}]}");

        refused(submit);
        assertThat(server.last().sent("tools/call")).isEmpty();
    }

    @Test
    void ordinaryCancelRefusedAsAlreadyTerminalAfterTheLeaseLapsedReadsNoStatus() throws Exception {
        hold("tools/call");
        CompletableFuture<RemoteTaskSnapshot> cancel = ordinary.cancel(ref, lease);
        pausedPastTheLeaseThenAnswered("{\"content\":[{\"type\":\"text\",\"text\":\"already finished\"}],"
                + "\"isError\":true,\"structuredContent\":{\"task_id\":\"r1\",\"error_code\":\"already_terminal\"}}");

        refused(cancel);
        assertThat(server.last().sent("tools/call")).extracting(call -> call.path("params").path("name").asText())
                .containsExactly("stop");
    }

    @Test
    void ordinarySubmitSendsNoCreateAfterTheLeaseLapsedDuringTheHandshake() throws Exception {
        hold("initialize");
        CompletableFuture<?> submit = ordinary.submit(new SubmitCall(TaskId.of("t1"), "fake", "work", "{}", null),
                lease);
        pausedPastTheLeaseThenAnswered("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
                + "\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}");

        refused(submit);
        assertThat(server.last().sent("tools/call")).isEmpty();
    }

    /**
     * A claim can be taken before its lease runs out (a user's cancel request takes a row from its poll): the driver
     * asks the caller to confirm before each request, so a status request whose session had to be opened first is
     * sent only if the caller still holds the claim once the handshake is done.
     */
    @Test
    void nativeStatusSendsNoRequestWhenTheClaimWasTakenWhileTheSessionOpened() throws Exception {
        AtomicBoolean claimTaken = new AtomicBoolean();
        AtomicInteger confirmations = new AtomicInteger();
        SendPermit storeChecked = new SendPermit() {
            @Override
            public boolean maySend() {
                return true;
            }

            @Override
            public CompletableFuture<Boolean> confirm() {
                confirmations.incrementAndGet();
                return CompletableFuture.completedFuture(!claimTaken.get());
            }
        };
        hold("initialize");
        CompletableFuture<RemoteTaskSnapshot> status = nativeDriver.status(ref, storeChecked);
        TaskPeerScript.eventually(() -> !held.isEmpty(), "the handshake was sent");
        claimTaken.set(true);
        server.last().reply(held.get(0).get("id").asText(), json("{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{\"tasks\":{\"requests\":{\"tools\":{\"call\":{}}}}},"
                + "\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}"));

        refused(status);
        assertThat(server.last().sent("tasks/get")).isEmpty();
        assertThat(confirmations).as("asked before the handshake and before the status request").hasValue(2);
    }

    @Test
    void theSingleArgumentFormsAlwaysPermit() throws Exception {
        worker.advance(LEASE.plusSeconds(1));
        assertThat(await(nativeDriver.status(ref)).resultJson()).contains("done");
    }
}
