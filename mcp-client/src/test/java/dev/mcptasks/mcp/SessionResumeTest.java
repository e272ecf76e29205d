package dev.mcptasks.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.ManualClock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A 2025-11-25 task created by one worker is driven by another in the server session that created it: servers that
 * bind tasks to their {@code Mcp-Session-Id} (the TypeScript SDK's task store, played here by the reference server in
 * session-scoped mode) answer for the task only there. Each "worker" is its own {@link McpSessions}.
 */
class SessionResumeTest {
    private static final String SERVER = "peer";
    private static final String WORK = "{\"durationMs\":300,\"result\":\"done\"}";

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable each : cleanup) {
            each.close();
        }
    }

    private URI server(boolean sessionScoped) {
        ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults()
                .withSessionScoped(sessionScoped));
        cleanup.add(server);
        return server.startHttp(0);
    }

    /** A worker of its own: its sessions, closed after the test (closing twice is harmless). */
    private record Worker(McpSessions sessions, NativeTasksDriver driver) {}

    private Worker worker(URI url) {
        McpSessions sessions = new McpSessions(
                List.of(McpServerSettings.of(McpServerSpec.http(SERVER, url, Map.of()))),
                List.of(new HttpTransportFactory()), new ManualClock(), "resume-test");
        cleanup.add(sessions);
        return new Worker(sessions, new NativeTasksDriver(sessions));
    }

    private static SubmitResult submit(NativeTasksDriver driver) throws Exception {
        return driver.submit(new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER, "work", WORK, 60_000L))
                .get(20, TimeUnit.SECONDS);
    }

    private static RemoteTaskRef ref(SubmitResult created, String endpointSession) {
        return new RemoteTaskRef(TaskId.of("t-1"), SERVER, "work", created.snapshot().remoteTaskId(),
                created.protocolVersion(), endpointSession);
    }

    /** Polls until terminal (the work tool takes 300 ms). */
    private static RemoteTaskSnapshot finish(NativeTasksDriver driver, RemoteTaskRef ref) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            RemoteTaskSnapshot snapshot = driver.status(ref).get(20, TimeUnit.SECONDS);
            if (snapshot.status().isTerminal() || System.nanoTime() > deadline) {
                return snapshot;
            }
            Thread.sleep(50);
        }
    }

    private static RemoteCallException failure(CompletableFuture<?> future) {
        Throwable thrown = catchThrowable(() -> future.get(20, TimeUnit.SECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(RemoteCallException.class);
        return (RemoteCallException) thrown.getCause();
    }

    @Test
    void anotherWorkerFinishesATaskInTheSessionThatCreatedIt() throws Exception {
        URI url = server(true);
        Worker creator = worker(url);
        SubmitResult created = submit(creator.driver());
        assertThat(created.endpointSession()).as("the creating session is reported").isNotBlank();
        // the creating worker goes away; whether killed or closed, its server session stays
        creator.sessions().close();

        NativeTasksDriver taker = worker(url).driver();
        RemoteTaskSnapshot done = finish(taker, ref(created, created.endpointSession()));

        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(done.resultJson()).contains("done");
        // without the session the server does not know the task: what made such tasks lost before
        assertThat(failure(taker.status(ref(created, null))).failure()).isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void cancelGoesToTheCreatingSessionToo() throws Exception {
        URI url = server(true);
        SubmitResult created = driverSubmitSlow(worker(url).driver());

        NativeTasksDriver taker = worker(url).driver();
        RemoteTaskRef ref = ref(created, created.endpointSession());
        RemoteTaskSnapshot cancelled = taker.cancel(ref).get(20, TimeUnit.SECONDS);

        assertThat(cancelled.status()).isEqualTo(TaskStatus.CANCELLED);
    }

    private static SubmitResult driverSubmitSlow(NativeTasksDriver driver) throws Exception {
        return driver.submit(new SubmitCall(TaskId.of("t-" + System.nanoTime()), SERVER, "work",
                "{\"durationMs\":600000,\"result\":\"never\"}", 60_000L)).get(20, TimeUnit.SECONDS);
    }

    @Test
    void aForgottenSessionFallsBackToTheWorkersOwnSessionWhichStillFindsASharedTask() throws Exception {
        URI url = server(false);
        SubmitResult created = submit(worker(url).driver());

        NativeTasksDriver taker = worker(url).driver();
        RemoteTaskSnapshot done = finish(taker, ref(created, "a-session-the-server-never-had"));

        assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void aForgottenSessionOfASessionBoundServerEndsTheTaskLostNotRetriedForever() throws Exception {
        URI url = server(true);
        SubmitResult created = submit(worker(url).driver());

        NativeTasksDriver taker = worker(url).driver();

        assertThat(failure(taker.status(ref(created, "a-session-the-server-never-had"))).failure())
                .isEqualTo(RemoteFailure.TASK_LOST);
    }

    @Test
    void theCreatingWorkerKeepsUsingItsOwnSessionWithoutASecondOne() throws Exception {
        URI url = server(true);
        Worker only = worker(url);
        SubmitResult created = submit(only.driver());
        RemoteTaskRef ref = ref(created, created.endpointSession());

        assertThat(only.sessions().resumedFor(only.sessions().session(SERVER).orElseThrow(), ref)).isEmpty();
        assertThat(finish(only.driver(), ref).status()).isEqualTo(TaskStatus.COMPLETED);
    }
}
