package dev.mcptasks.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.mcp.ReferenceHarness.Via;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The native tasks driver against the reference server, over stdio and Streamable HTTP. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NativeTasksDriverTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private final Map<Via, ReferenceHarness> harnesses = new EnumMap<>(Via.class);

    private ReferenceHarness harness(Via via) {
        return harnesses.computeIfAbsent(via, v -> new ReferenceHarness(v, ReferenceServerOptions.defaults(), true));
    }

    private NativeTasksDriver driver(Via via) {
        return new NativeTasksDriver(harness(via).sessions);
    }

    @AfterAll
    void closeAll() {
        harnesses.values().forEach(ReferenceHarness::close);
    }

    static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    static RemoteCallException remoteFailure(CompletableFuture<?> future) {
        try {
            future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(RemoteCallException.class);
            return (RemoteCallException) e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call succeeded");
    }

    private static SubmitCall call(String tool, String arguments) {
        return new SubmitCall(TaskId.of("t-" + System.nanoTime()), ReferenceHarness.SERVER, tool, arguments, 60_000L);
    }

    private static RemoteTaskRef ref(SubmitCall call, SubmitResult created) {
        return new RemoteTaskRef(call.taskId(), call.serverName(), call.toolName(),
                created.snapshot().remoteTaskId());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void createsPollsAndFetchesTheResult(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        SubmitCall call = call("work", "{\"durationMs\":100,\"result\":\"hello from the task\"}");

        SubmitResult created = await(driver.submit(call));

        assertThat(created.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(created.processLocal()).isTrue();
        assertThat(created.snapshot().status()).isIn(TaskStatus.WORKING, TaskStatus.COMPLETED);
        assertThat(created.snapshot().remoteTtlMs()).isEqualTo(60_000L);
        assertThat(created.snapshot().pollAfter()).isEqualTo(Duration.ofMillis(500));
        RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref(call, created), DEADLINE);
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("hello from the task").contains("\"content\"");
        assertThat(done.error()).isNull();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aFailedTaskCarriesItsResultAndErrorText(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        SubmitCall call = call("work", "{\"durationMs\":0,\"fail\":true,\"failMessage\":\"upstream 503\"}");

        RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref(call, await(driver.submit(call))), DEADLINE);

        assertThat(done.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(done.error()).contains("upstream 503");
        assertThat(done.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
        assertThat(done.resultJson()).contains("\"isError\":true");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void cancelsAndConfirmsARepeatedCancel(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        SubmitCall call = call("work", "{\"durationMs\":600000}");
        RemoteTaskRef ref = ref(call, await(driver.submit(call)));

        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(driver.status(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void cancellingAFinishedTaskReturnsItsResult(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        SubmitCall call = call("work", "{\"durationMs\":0,\"result\":\"finished first\"}");
        RemoteTaskRef ref = ref(call, await(driver.submit(call)));
        Polling.untilTerminal(driver, ref, DEADLINE);

        RemoteTaskSnapshot afterCancel = await(driver.cancel(ref));

        assertThat(afterCancel.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(afterCancel.resultJson()).contains("finished first");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void anUnknownTaskIsLost(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        RemoteTaskRef missing = new RemoteTaskRef(TaskId.of("t-missing"), ReferenceHarness.SERVER, "work",
                "no-such-task");

        assertThat(remoteFailure(driver.status(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(remoteFailure(driver.cancel(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aToolThatIsNotTaskCapableRunsAsADirectCall(Via via) throws Exception {
        SubmitResult done = await(driver(via).submit(call("echo", "{\"text\":\"hi\"}")));

        assertThat(done.createdTask()).isFalse();
        assertThat(done.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.snapshot().resultJson()).contains("\"text\":\"hi\"");
        assertThat(remoteFailure(driver(via).submit(call("no_such_tool", "{}"))).failure())
                .isEqualTo(RemoteFailure.REFUSED);
        assertThat(remoteFailure(driver(via).submit(call("work", "[1]")))).hasMessageContaining("JSON object");
        // the session is unaffected
        assertThat(await(driver(via).submit(call("work_optional", "{\"durationMs\":0}"))).snapshot().remoteTaskId())
                .isNotBlank();
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void malformedTaskAnswersAreProtocolErrors(Via via) throws Exception {
        NativeTasksDriver driver = driver(via);
        for (String malformed : new String[] {"bogusStatus", "missingTaskId", "notObject"}) {
            SubmitCall call = call("work", "{\"durationMs\":600000,\"malformed\":\"" + malformed + "\"}");
            RemoteTaskRef ref = ref(call, await(driver.submit(call)));

            RemoteCallException failure = remoteFailure(driver.status(ref));

            assertThat(failure.failure()).as(malformed).isEqualTo(RemoteFailure.PROTOCOL);
            await(driver.cancel(ref));
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aHangingStatusTimesOutAsTransientAndOnlyThatCallIsAffected(Via via) throws Exception {
        ReferenceHarness harness = harness(via);
        NativeTasksDriver driver = driver(via);
        SubmitCall hanging = call("work", "{\"durationMs\":600000,\"statusHang\":true}");
        RemoteTaskRef hangingRef = ref(hanging, await(driver.submit(hanging)));
        SubmitCall healthy = call("work", "{\"durationMs\":600000}");
        RemoteTaskRef healthyRef = ref(healthy, await(driver.submit(healthy)));

        CompletableFuture<RemoteTaskSnapshot> status = driver.status(hangingRef);
        String sent = harness.observed.awaitSent(m -> m.contains("tasks/get") && m.contains(hangingRef.remoteTaskId()));
        harness.clock.advance(ReferenceHarness.TIMEOUT);

        RemoteCallException failure = remoteFailure(status);
        assertThat(failure.failure()).isEqualTo(RemoteFailure.TRANSIENT);
        assertThat(failure.getCause()).isInstanceOf(McpTimeoutException.class);
        String id = FakeServer.json(sent).get("id").toString();
        harness.observed.awaitSent(m -> m.contains("notifications/cancelled") && m.contains("\"requestId\":" + id));
        assertThat(await(driver.status(healthyRef)).status()).isEqualTo(TaskStatus.WORKING);
        await(driver.cancel(hangingRef));
        await(driver.cancel(healthyRef));
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void cancellingTheStatusFutureCancelsTheRequest(Via via) throws Exception {
        ReferenceHarness harness = harness(via);
        NativeTasksDriver driver = driver(via);
        SubmitCall hanging = call("work", "{\"durationMs\":600000,\"statusHang\":true}");
        RemoteTaskRef ref = ref(hanging, await(driver.submit(hanging)));

        CompletableFuture<RemoteTaskSnapshot> status = driver.status(ref);
        String sent = harness.observed.awaitSent(m -> m.contains("tasks/get") && m.contains(ref.remoteTaskId()));
        status.cancel(true);

        String id = FakeServer.json(sent).get("id").toString();
        harness.observed.awaitSent(m -> m.contains("notifications/cancelled") && m.contains("\"requestId\":" + id));
        await(driver.cancel(ref));
    }

    @Test
    void aSessionBoundTaskIsLostOnceTheSessionIsReplaced() throws Exception {
        try (ReferenceHarness harness = new ReferenceHarness(Via.HTTP,
                ReferenceServerOptions.defaults().withSessionScoped(true), true)) {
            NativeTasksDriver driver = new NativeTasksDriver(harness.sessions);
            SubmitCall call = call("work", "{\"durationMs\":600000}");
            RemoteTaskRef ref = ref(call, await(driver.submit(call)));
            assertThat(await(driver.status(ref)).status()).isEqualTo(TaskStatus.WORKING);

            // the server forgets the session (as on a server restart). Either the next call learns it (a
            // retryable failure) and the one after runs on a new session that cannot see the task, or the GET
            // stream reported the loss first and the very next call already runs on the new session.
            harness.observed.created.get(0).close();
            RemoteCallException first = remoteFailure(driver.status(ref));
            assertThat(first.failure()).isIn(RemoteFailure.NOT_SENT, RemoteFailure.TRANSIENT, RemoteFailure.TASK_LOST);
            RemoteCallException lost = first.failure() == RemoteFailure.TASK_LOST ? first
                    : remoteFailure(driver.status(ref));
            assertThat(lost.failure()).isEqualTo(RemoteFailure.TASK_LOST);
            assertThat(lost).hasMessageContaining(ref.remoteTaskId());
            assertThat(harness.observed.created).hasSize(2);
        }
    }
}
