package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.common.util.concurrent.MoreExecutors;
import dev.mcptasks.core.retention.Purger;
import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.retention.RetentionStore;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The workers' retention timer on a manual clock: its passes run on a direct executor, so each one has ended when the
 * {@code advance} that made it due returns, and the test sees every store call a pass made, in order.
 */
class RetentionLoopTest {
    private static final Duration INTERVAL = Duration.ofMinutes(10);
    private static final int BATCH = 2;
    private static final RetentionPolicy POLICY = new RetentionPolicy(Map.of(TaskStatus.CANCELLED,
            Duration.ofMinutes(5)), null, BATCH, Duration.ZERO, INTERVAL);

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final InMemoryAuditLog audit = new InMemoryAuditLog(clock);
    private final RecordingRetention store = new RecordingRetention(repository.retention());
    private final AtomicInteger pauses = new AtomicInteger();
    private final RetentionLoop loop = new RetentionLoop(new Purger(store, audit, clock, BATCH,
            pauses::incrementAndGet), POLICY, audit, WorkerId.of("worker-r"), clock,
            MoreExecutors.newDirectExecutorService());
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(RetentionLoop.class);

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() throws InterruptedException {
        logger.detachAppender(lines);
        loop.stop();
    }

    @Test
    void everyIntervalAPassPurgesInBatchesOfTheConfiguredSizeAndIsAudited() throws Exception {
        for (int i = 0; i < 5; i++) {
            cancelledTask();
        }
        loop.start();

        clock.advance(INTERVAL.minusSeconds(1));
        assertThat(store.calls).as("not due yet").isEmpty();
        clock.advance(Duration.ofSeconds(1));

        assertThat(store.calls).containsExactly("finished cancelled 2 -> 2", "finished cancelled 2 -> 2",
                "finished cancelled 2 -> 1", "expired 2 -> 0");
        assertThat(pauses.get()).as("a pause after each full batch").isEqualTo(2);
        assertThat(repository.list(TaskQuery.all(10))).isEmpty();
        List<AuditRecord> recorded = audit.list(new AuditQuery(null, null, 10));
        assertThat(recorded).singleElement().satisfies(record -> {
            assertThat(record.principal()).isEqualTo("worker-r");
            assertThat(record.channel()).isEqualTo(AuditChannel.WORKER);
            assertThat(record.action()).isEqualTo(AuditAction.PURGE);
            assertThat(record.detail()).isEqualTo("retention: 5 tasks, 0 audit records");
        });

        store.calls.clear();
        clock.advance(INTERVAL);
        assertThat(store.calls).as("the next pass, with nothing left").containsExactly("finished cancelled 2 -> 0",
                "expired 2 -> 0");
        assertThat(audit.list(new AuditQuery(null, null, 10))).as("a pass that deleted nothing is not audited")
                .hasSize(1);

        loop.stop();
        assertThat(clock.pendingTimers()).as("stopping cancels the next pass").isZero();
        store.calls.clear();
        clock.advance(INTERVAL.multipliedBy(3));
        assertThat(store.calls).isEmpty();
    }

    /**
     * A pass slower than three intervals (the clock moves while its first batch runs): no other pass starts meanwhile,
     * and the next one is due an interval after it ended, not at the intervals that passed during it.
     */
    @Test
    void aPassLongerThanTheIntervalIsNeverOverlappedAndTheNextIsDueAnIntervalAfterItEnded() {
        Instant start = clock.now();
        store.duringFirstCall = () -> clock.advance(INTERVAL.multipliedBy(3));
        loop.start();

        clock.advance(INTERVAL);

        assertThat(store.deepest.get()).as("no store call of another pass inside this pass's").isEqualTo(1);
        assertThat(store.expiredAt).as("one pass, ended three intervals late")
                .containsExactly(start.plus(INTERVAL.multipliedBy(4)));
        clock.advance(INTERVAL.minusSeconds(1));
        assertThat(store.expiredAt).hasSize(1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(store.expiredAt).containsExactly(start.plus(INTERVAL.multipliedBy(4)),
                start.plus(INTERVAL.multipliedBy(5)));
        assertThat(store.deepest.get()).isEqualTo(1);
    }

    @Test
    void aFailedPassIsLoggedInOneLineAndTheNextPassRunsOnSchedule() throws Exception {
        for (int i = 0; i < 3; i++) {
            cancelledTask();
        }
        store.failuresLeft.set(1);
        loop.start();

        clock.advance(INTERVAL);

        assertThat(lines.list).filteredOn(line -> line.getLevel() == Level.WARN).singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).isEqualTo("retention: purge pass failed, retrying in"
                        + " PT10M: dev.mcptasks.ports.repository.RepositoryException: store unavailable");
        assertThat(repository.list(TaskQuery.all(10))).hasSize(3);
        assertThat(clock.pendingTimers()).as("the loop lives on").isEqualTo(1);

        clock.advance(INTERVAL);
        assertThat(repository.list(TaskQuery.all(10))).isEmpty();
        assertThat(audit.list(new AuditQuery(null, null, 10))).extracting(AuditRecord::detail)
                .containsExactly("retention: 3 tasks, 0 audit records");
    }

    /** A task cancelled before it was sent, finished six minutes ago by the time the first pass runs. */
    private void cancelledTask() {
        NewTask task = new NewTask(ids.newTaskId(), "native", "job", "{}", "mcp-tasks", null);
        repository.create(task);
        repository.requestCancel(task.id());
        repository.claimNotifications(new NotificationClaimRequest(WorkerId.of("w"), 100, Duration.ofMinutes(1)))
                .forEach(claim -> {
                    repository.markDispatched(claim);
                    repository.finishNotification(claim);
                });
    }

    /**
     * The store's retention, recording each call, its answer and the clock's time of each pass's last call; it can
     * fail calls and run code inside one.
     */
    private final class RecordingRetention implements RetentionStore {
        private final RetentionStore delegate;
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<Instant> expiredAt = new CopyOnWriteArrayList<>();
        final AtomicInteger failuresLeft = new AtomicInteger();
        final AtomicInteger deepest = new AtomicInteger();
        private final AtomicInteger depth = new AtomicInteger();
        Runnable duringFirstCall;

        RecordingRetention(RetentionStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public int purgeFinished(TaskStatus status, Instant finishedBefore, int limit) {
            enter();
            try {
                int deleted = delegate.purgeFinished(status, finishedBefore, limit);
                calls.add("finished " + status.wireName() + " " + limit + " -> " + deleted);
                return deleted;
            } finally {
                depth.decrementAndGet();
            }
        }

        @Override
        public int purgeExpired(Instant now, int limit) {
            enter();
            try {
                expiredAt.add(clock.now());
                int deleted = delegate.purgeExpired(now, limit);
                calls.add("expired " + limit + " -> " + deleted);
                return deleted;
            } finally {
                depth.decrementAndGet();
            }
        }

        private void enter() {
            deepest.accumulateAndGet(depth.incrementAndGet(), Math::max);
            if (failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                depth.decrementAndGet();
                throw new RepositoryException("store unavailable");
            }
            Runnable once = duringFirstCall;
            duringFirstCall = null;
            if (once != null) {
                once.run();
            }
        }

        @Override
        public long countFinished(TaskStatus status, Instant finishedBefore) {
            return delegate.countFinished(status, finishedBefore);
        }

        @Override
        public long countExpired(Instant now) {
            return delegate.countExpired(now);
        }
    }
}
