package dev.mcptasks.core.runtime;

import static dev.mcptasks.testkit.driver.GatedDriver.Kind.SUBMIT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingTaskClaims;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedCall;
import dev.mcptasks.testkit.driver.GatedDriver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A direct call's progress reaches the store ({@code recordProgress}) under the submit claim: at most once a second, the
 * latest message, never once the call returned. Fake driver, manual clock.
 */
class DirectCallProgressTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private record Stored(Claim claim, String message, boolean written) {}

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final BlockingQueue<Stored> stored = new LinkedBlockingQueue<>();
    /** Records each progress write the worker makes, then lets the store judge it. */
    private final TaskRepository repository = ComposedTaskRepository.of(store)
            .withClaims(claims -> new ForwardingTaskClaims() {
                @Override
                public TaskClaims delegate() {
                    return claims;
                }

                @Override
                public boolean recordProgress(Claim claim, String statusMessage) {
                    boolean written = ForwardingTaskClaims.super.recordProgress(claim, statusMessage);
                    stored.add(new Stored(claim, statusMessage, written));
                    return written;
                }
            });
    private final GatedDriver gated = new GatedDriver("gated", clock);
    private final ObservingDriver driver = new ObservingDriver(gated);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("direct", "direct", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final RecordingListener events = new RecordingListener();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4), repository,
            new TaskDriverRegistry(List.of(driver), servers), servers, clock, () -> 0.5, executor,
            new LogNotificationSink(), events);

    @AfterEach
    void shutdown() {
        gated.failAllOpen(new RemoteCallException(RemoteFailure.TRANSIENT, "test over"));
        executor.shutdownNow();
    }

    @Test
    void progressIsStoredUnderTheSubmitClaimAtMostOncePerSecondLatestFirstAndNeverAfterTheCallReturned()
            throws Exception {
        TaskId id = service.submit("direct", "slow", "{}").id();
        worker.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);
        SubmitObserver observer = driver.observer;

        observer.progress(new CallProgress(1, 4.0, null));
        Stored first = stored.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(first).isNotNull();
        assertThat(first.message()).isEqualTo("progress 1/4");
        assertThat(first.written()).as("the fence let it through").isTrue();
        assertThat(first.claim().taskId()).isEqualTo(id);
        assertThat(first.claim().phase()).isEqualTo(ClaimPhase.SUBMIT);
        assertThat(first.claim().token()).as("the claim holding the call")
                .isEqualTo(repository.find(id).orElseThrow().lease().token());

        observer.progress(new CallProgress(2, 4.0, "half way"));
        observer.progress(new CallProgress(3, 4.0, "three quarters"));
        clock.advance(Duration.ofSeconds(1));
        Stored latest = stored.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(latest).isNotNull();
        assertThat(latest.message()).as("the latest wins; 'half way' is never written").isEqualTo("three quarters");
        assertThat(store.find(id).orElseThrow().state().statusMessage()).as("stored under the live claim")
                .isEqualTo("three quarters");

        observer.progress(new CallProgress(4, 4.0, "almost"));
        call.complete(new SubmitResult(RemoteTaskSnapshot.of(null, TaskStatus.COMPLETED).withResult("{\"v\":1}"),
                "2025-11-25", false));
        events.await(RecordingListener.Type.SETTLED, id, 1);
        observer.progress(new CallProgress(5, 5.0, "after the end"));
        clock.advance(Duration.ofSeconds(2));
        worker.tick();

        assertThat(stored).as("a message still waiting when the call returned is dropped, and so is a later one")
                .isEmpty();
        assertThat(repository.find(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void everyProgressReportReachesTheRuntimeListenerAtOnceUnthrottled() throws Exception {
        List<String> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        WorkerRuntime listening = new WorkerRuntime(WorkerId.of("w2"), LifecycleHarness.settings(4), repository,
                new TaskDriverRegistry(List.of(driver), servers), servers, clock, () -> 0.5, executor,
                new LogNotificationSink(), new RuntimeListener() {
                    @Override
                    public void callProgress(TaskId task, CallProgress progress) {
                        heard.add(task.value() + " " + progress.statusMessage());
                    }
                });
        TaskId id = service.submit("direct", "slow", "{}").id();
        listening.tick();
        GatedCall call = gated.awaitCall(SUBMIT, id, WAIT);
        driver.observer.progress(new CallProgress(0, 100.0, null));
        driver.observer.progress(new CallProgress(50, 100.0, "half"));
        driver.observer.progress(new CallProgress(100, 100.0, null));

        assertThat(heard).containsExactly(id.value() + " progress 0/100", id.value() + " half",
                id.value() + " progress 100/100");
        call.complete(new SubmitResult(RemoteTaskSnapshot.of(null, TaskStatus.COMPLETED).withResult("{}"),
                "2025-11-25", false));
    }

    /** Runs every submit as a direct call on the gated driver and keeps the observer of the latest one. */
    private static final class ObservingDriver implements TaskDriver {
        private final GatedDriver gated;
        volatile SubmitObserver observer;

        ObservingDriver(GatedDriver gated) {
            this.gated = gated;
        }

        @Override
        public String name() {
            return "direct";
        }

        @Override
        public CompletableFuture<SubmitResult> submit(SubmitCall call) {
            return submit(call, SendPermit.ALWAYS, SubmitObserver.NONE);
        }

        @Override
        public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit, SubmitObserver observer) {
            this.observer = observer;
            observer.directCallSent();
            return gated.submit(call, permit);
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
            return gated.status(task);
        }

        @Override
        public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
            return gated.cancel(task);
        }
    }
}
