package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The ordinary-tools driver against the reference server's submit_job / job_status / cancel_job. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrdinaryToolsDriverTest {
    private static final OrdinaryToolset JOBS = new OrdinaryToolset("submit_job", "job_status", "cancel_job");
    private final Map<Via, ReferenceHarness> harnesses = new EnumMap<>(Via.class);

    private ReferenceHarness harness(Via via) {
        return harnesses.computeIfAbsent(via, v -> new ReferenceHarness(v, ReferenceServerOptions.defaults(), false));
    }

    private OrdinaryToolsDriver driver(Via via) {
        return new OrdinaryToolsDriver(harness(via).sessions, Map.of(ReferenceHarness.SERVER, JOBS));
    }

    @AfterAll
    void closeAll() {
        harnesses.values().forEach(ReferenceHarness::close);
    }

    private static SubmitCall call(String arguments) {
        return new SubmitCall(TaskId.of("t-" + System.nanoTime()), ReferenceHarness.SERVER, "anything", arguments,
                null);
    }

    private static RemoteTaskRef ref(SubmitCall call, SubmitResult created) {
        return new RemoteTaskRef(call.taskId(), call.serverName(), call.toolName(),
                created.snapshot().remoteTaskId());
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void runsAJobToItsResult(Via via) throws Exception {
        OrdinaryToolsDriver driver = driver(via);
        SubmitCall call = call("{\"durationMs\":100,\"result\":\"job output\"}");

        SubmitResult created = await(driver.submit(call));

        assertThat(created.snapshot().status()).isEqualTo(TaskStatus.WORKING);
        assertThat(created.processLocal()).isEqualTo(via == Via.STDIO);
        RemoteTaskSnapshot running = await(driver.status(ref(call, created)));
        if (!running.status().isTerminal()) {
            assertThat(running.pollAfter()).isEqualTo(Duration.ofSeconds(1));
        }
        RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref(call, created), Duration.ofSeconds(30));
        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).isEqualTo("\"job output\"");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aFailedJobCarriesItsError(Via via) throws Exception {
        OrdinaryToolsDriver driver = driver(via);
        SubmitCall call = call("{\"durationMs\":0,\"fail\":true,\"failMessage\":\"disk full\"}");

        RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref(call, await(driver.submit(call))),
                Duration.ofSeconds(30));

        assertThat(done.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(done.error()).contains("disk full");
        assertThat(done.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void cancelsAndConfirmsARepeatedCancel(Via via) throws Exception {
        OrdinaryToolsDriver driver = driver(via);
        SubmitCall call = call("{\"durationMs\":600000}");
        RemoteTaskRef ref = ref(call, await(driver.submit(call)));

        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void anUnknownJobIsLost(Via via) throws Exception {
        OrdinaryToolsDriver driver = driver(via);
        RemoteTaskRef missing = new RemoteTaskRef(TaskId.of("t-x"), ReferenceHarness.SERVER, "anything", "nope");

        assertThat(remoteFailure(driver.status(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThat(remoteFailure(driver.cancel(missing)).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aRefusedSubmitIsRefused(Via via) throws Exception {
        RemoteCallException refused = remoteFailure(driver(via).submit(call("{\"durationMs\":-1}")));

        assertThat(refused.failure()).isEqualTo(RemoteFailure.REFUSED);
        assertThat(refused).hasMessageContaining("durationMs");
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aHangingStatusToolTimesOutAsTransient(Via via) throws Exception {
        ReferenceHarness harness = harness(via);
        OrdinaryToolsDriver driver = driver(via);
        SubmitCall call = call("{\"durationMs\":600000,\"statusHang\":true}");
        RemoteTaskRef ref = ref(call, await(driver.submit(call)));

        CompletableFuture<RemoteTaskSnapshot> status = driver.status(ref);
        harness.observed.awaitSent(m -> m.contains("job_status") && m.contains(ref.remoteTaskId()));
        harness.clock.advance(ReferenceHarness.TIMEOUT);

        assertThat(remoteFailure(status).failure()).isEqualTo(RemoteFailure.TRANSIENT);
        assertThat(await(driver.cancel(ref)).status()).isEqualTo(TaskStatus.CANCELLED);
    }

    @org.junit.jupiter.api.Test
    void runsAJobOnAServerOfThe2026Generation() throws Exception {
        try (ReferenceHarness v2026 = new ReferenceHarness(Via.HTTP, ReferenceServerOptions.defaults()
                .withGeneration(dev.mcptasks.reference.ServedGenerations.V2026_07_28), false)) {
            OrdinaryToolsDriver driver = new OrdinaryToolsDriver(v2026.sessions, Map.of(ReferenceHarness.SERVER,
                    JOBS));
            SubmitCall call = call("{\"durationMs\":100,\"result\":\"modern job output\"}");

            SubmitResult created = await(driver.submit(call));

            assertThat(v2026.session().generation())
                    .contains(dev.mcptasks.domain.ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
            RemoteTaskSnapshot done = Polling.untilTerminal(driver, ref(call, created), Duration.ofSeconds(30));
            assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
            assertThat(done.resultJson()).isEqualTo("\"modern job output\"");
        }
    }
}
