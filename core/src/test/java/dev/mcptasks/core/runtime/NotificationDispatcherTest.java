package dev.mcptasks.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.driver.GatedDriver;
import dev.mcptasks.testkit.notification.ScriptedSink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The notify phase: delivery with idempotency keys, busy, gone and counted failures up to the dead letter. */
class NotificationDispatcherTest {
    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("srv", "gated", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ScriptedSink sink = new ScriptedSink();
    private final RecordingListener events = new RecordingListener();
    private final WorkerRuntime worker = new WorkerRuntime(WorkerId.of("w"), LifecycleHarness.settings(4),
            repository, new TaskDriverRegistry(List.of(new GatedDriver("gated", clock)), servers), servers, clock,
            () -> 0.5, executor, sink, events);

    @AfterEach
    void shutdown() {
        executor.shutdownNow();
    }

    @Test
    void attentionEventIsDeliveredOnceWithItsIdempotencyKey() throws Exception {
        TaskId id = cancelledTask();

        worker.tick();
        Notification delivered = sink.next();

        assertThat(delivered.idempotencyKey()).isEqualTo("mcp-task:" + id + ":1:1");
        assertThat(delivered.eventJson()).contains("\"status\":\"cancelled\"");
        TaskRecord row = recorded(id, 1);
        assertThat(row.outbox().status()).isEqualTo(NotificationStatus.DELIVERED);
        assertThat(row.outbox().notifiedVersion()).isEqualTo(1);
        worker.tick();
        assertThat(worker.metrics().deliveries()).as("nothing new to deliver").isEqualTo(1);
        assertThat(sink.count()).isEqualTo(1);
    }

    @Test
    void busyIsRetriedUncountedAndGoneIsDeadLettered() throws Exception {
        TaskId id = cancelledTask();
        sink.script(new DeliveryResult.Busy("locked"));
        sink.script(new DeliveryResult.Gone("410"));

        worker.tick();
        sink.next();
        TaskRecord retry = recorded(id, 1);
        assertThat(retry.outbox().status()).isEqualTo(NotificationStatus.RETRY);
        assertThat(retry.outbox().attemptCount()).isZero();

        clock.advance(LifecycleHarness.POLL);
        worker.tick();
        assertThat(sink.next().attempt()).isEqualTo(2);
        TaskRecord dead = recorded(id, 2);
        assertThat(dead.outbox().status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(dead.outbox().error()).contains("410");
    }

    @Test
    void countedFailuresBackOffAndDeadLetterAfterTheLastAttempt() throws Exception {
        TaskId id = cancelledTask();
        for (int i = 0; i < 5; i++) {
            sink.script(new DeliveryResult.Failed("HTTP 500"));
        }
        for (int attempt = 1; attempt <= 5; attempt++) {
            worker.tick();
            assertThat(sink.next().attempt()).isEqualTo(attempt);
            if (attempt < 5) {
                TaskRecord row = recorded(id, attempt);
                assertThat(row.outbox().status()).isEqualTo(NotificationStatus.RETRY);
                Duration backoff = LifecycleHarness.POLL.multipliedBy(1L << (attempt - 1));
                assertThat(row.outbox().nextAt()).isEqualTo(clock.now().plus(backoff));
                clock.advance(backoff);
            }
        }
        TaskRecord dead = recorded(id, 5);
        assertThat(dead.outbox().status()).isEqualTo(NotificationStatus.DEAD_LETTER);
        assertThat(dead.outbox().error()).contains("HTTP 500");
    }

    @Test
    void busyAnswersNeverCountTowardDeadLettering() throws Exception {
        TaskId id = cancelledTask();
        for (int i = 0; i < 6; i++) {
            sink.script(new DeliveryResult.Busy("locked"));
        }
        sink.script(new DeliveryResult.Failed("HTTP 500"));
        for (int n = 1; n <= 7; n++) {
            worker.tick();
            sink.next();
            TaskRecord row = recorded(id, n);
            assertThat(row.outbox().status()).as("answer %d", n).isEqualTo(NotificationStatus.RETRY);
            clock.advance(row.outbox().nextAt().isAfter(clock.now())
                    ? Duration.between(clock.now(), row.outbox().nextAt()) : Duration.ZERO);
        }
        TaskRecord row = repository.find(id).orElseThrow();
        assertThat(row.outbox().attemptCount()).as("only the failure counts").isEqualTo(1);
        assertThat(row.outbox().error()).contains("HTTP 500");
    }

    @Test
    void sinkThatNeverAnswersTimesOutAsACountedFailure() throws Exception {
        TaskId id = cancelledTask();
        sink.hangNext();

        worker.tick();
        sink.next();
        clock.advance(RuntimeSettings.DEFAULT_SINK_TIMEOUT);

        TaskRecord row = recorded(id, 1);
        assertThat(row.outbox().status()).isEqualTo(NotificationStatus.RETRY);
        assertThat(row.outbox().attemptCount()).isEqualTo(1);
        assertThat(row.outbox().error()).contains("timed out");
        assertThat(row.outbox().leaseOwner()).isNull();
    }

    @Test
    void stopReleasesDeliveriesStillWaitingForTheSink() throws Exception {
        TaskId id = cancelledTask();
        sink.hangNext();
        worker.tick();
        sink.next();
        assertThat(repository.find(id).orElseThrow().outbox().leaseOwner()).isEqualTo(worker.workerId());

        worker.stop().get(20, java.util.concurrent.TimeUnit.SECONDS);

        TaskRecord row = repository.find(id).orElseThrow();
        assertThat(row.outbox().leaseOwner()).as("due again at once for another worker").isNull();
        assertThat(row.outbox().status()).as("its frozen event may have reached the sink")
                .isEqualTo(NotificationStatus.DISPATCHED);
    }

    @Test
    void aClaimedBatchIsMarkedDispatchedByItsClaimBeforeAnySinkCall() throws Exception {
        ClaimRecordingOutbox recording = new ClaimRecordingOutbox(repository);
        TaskRepository store = ComposedTaskRepository.of(repository).withOutbox(outbox -> recording);
        WorkerRuntime recorded = new WorkerRuntime(WorkerId.of("g"), LifecycleHarness.settings(4), store,
                new TaskDriverRegistry(List.of(new GatedDriver("gated", clock)), servers), servers, clock,
                () -> 0.5, executor, sink, events);
        List<TaskId> tasks = List.of(cancelledTask(), cancelledTask(), cancelledTask());

        recorded.tick();

        for (int i = 0; i < tasks.size(); i++) {
            sink.next();
        }
        for (TaskId id : tasks) {
            assertThat(recorded(id, 1).outbox().status()).isEqualTo(NotificationStatus.DELIVERED);
        }
        assertThat(recording.claims).as("one claim took the batch").containsExactly(3);
        assertThat(recording.marks).as("no mark of its own").hasValue(0);
        assertThat(recording.afterClaim).as("every row dispatched by the claim, before any sink call")
                .containsOnly(NotificationStatus.DISPATCHED).hasSize(3);
        recorded.stop().get(20, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Records the dispatching claims (their sizes), any separate marks, and the rows' status after the claim. */
    private static final class ClaimRecordingOutbox implements ForwardingNotificationOutbox {
        final List<Integer> claims = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger marks = new java.util.concurrent.atomic.AtomicInteger();
        final List<NotificationStatus> afterClaim = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** Where the rows are read back. */
        private final TaskRepository delegate;

        ClaimRecordingOutbox(TaskRepository delegate) {
            this.delegate = delegate;
        }

        @Override
        public NotificationOutbox delegate() {
            return delegate;
        }

        @Override
        public List<dev.mcptasks.ports.repository.NotificationClaim> claimNotificationsDispatched(
                dev.mcptasks.ports.repository.NotificationClaimRequest request) {
            List<dev.mcptasks.ports.repository.NotificationClaim> taken =
                    delegate.claimNotificationsDispatched(request);
            if (!taken.isEmpty()) {
                claims.add(taken.size());
                // read before this returns, so before the dispatcher can hand any of them to the sink
                taken.forEach(claim -> afterClaim.add(delegate.find(claim.taskId()).orElseThrow().outbox().status()));
            }
            return taken;
        }

        @Override
        public boolean markDispatched(dev.mcptasks.ports.repository.NotificationClaim claim) {
            marks.incrementAndGet();
            return delegate.markDispatched(claim);
        }

        @Override
        public List<Boolean> markAllDispatched(List<dev.mcptasks.ports.repository.NotificationClaim> batch) {
            marks.addAndGet(batch.size());
            return delegate.markAllDispatched(batch);
        }
    }

    private TaskId cancelledTask() {
        TaskId id = service.submit("srv", "job", "{}").id();
        service.requestCancel(id);
        return id;
    }

    /** Waits for the {@code n}-th recorded delivery result of {@code id} and returns the row. */
    private TaskRecord recorded(TaskId id, int n) {
        events.await(RecordingListener.Type.NOTIFIED, id, n);
        return repository.find(id).orElseThrow();
    }
}
