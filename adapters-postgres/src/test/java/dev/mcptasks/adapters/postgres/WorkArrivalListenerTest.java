package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LISTEN/NOTIFY work-arrival signals: the listener's own connection, its loss and its end. */
class WorkArrivalListenerTest {
    private static final long SIGNAL_WAIT_SECONDS = 10;
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private PostgresSettings settings;
    private CloseableTaskRepository repository;
    private CloseableTaskRepository peer;
    private Connection inspector;

    @BeforeEach
    void open() throws SQLException {
        settings = PostgresTestDatabase.freshSchema();
        repository = PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
        peer = PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
        inspector = PostgresTestDatabase.connect(settings);
        // the database is shared with earlier tests, whose closed listeners' backends may still be exiting
        awaitNoListenerBackend();
    }

    @AfterEach
    void close() throws SQLException {
        inspector.close();
        peer.close();
        repository.close();
    }

    @Test
    void afterTheListenerConnectionIsKilledItSignalsOnceReconnectedAndLaterCreatesStillSignal() throws Exception {
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription ignored = repository.onWorkArrival(signals::release)) {
            List<Integer> listeners = listenerBackends();
            assertThat(listeners).as("listener backends").hasSize(1);

            assertThat(terminate(listeners.get(0))).as("terminated").isTrue();

            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("a signal once listening again (notifications may have been missed)").isTrue();
            assertThat(listenerBackends()).as("a new listener backend").hasSize(1).doesNotContain(listeners.get(0));
            signals.drainPermits();
            peer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS))
                    .as("signal after another handle's create, on the new connection").isTrue();
        }
    }

    @Test
    void theListenerConnectionOpensWithTheFirstSubscriptionAndClosesWithTheLast() throws Exception {
        WorkSubscription first = repository.onWorkArrival(() -> { });
        WorkSubscription second = repository.onWorkArrival(() -> { });
        assertThat(listenerBackends()).as("one connection for every subscription").hasSize(1);

        first.close();
        assertThat(listenerBackends()).as("while one subscription is left").hasSize(1);
        second.close();

        awaitNoListenerBackend();
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription again = repository.onWorkArrival(signals::release)) {
            peer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).as("a new subscription signals")
                    .isTrue();
        }
    }

    @Test
    void aThrowingSubscriberDoesNotStopTheOthers() throws Exception {
        Semaphore signals = new Semaphore(0);
        try (WorkSubscription throwing = repository.onWorkArrival(() -> {
                    throw new IllegalStateException("listener bug");
                });
                WorkSubscription counting = repository.onWorkArrival(signals::release)) {
            peer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
            peer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
            assertThat(signals.tryAcquire(SIGNAL_WAIT_SECONDS, TimeUnit.SECONDS)).as("the loop survived").isTrue();
        }
    }

    /** Backends of listeners on this test's schema's database (the tests of this JVM run one after the other). */
    private List<Integer> listenerBackends() throws SQLException {
        try (PreparedStatement query = inspector.prepareStatement("SELECT pid FROM pg_stat_activity"
                        + " WHERE application_name = ? AND datname = current_database() ORDER BY pid")) {
            query.setString(1, WorkArrivalListener.APPLICATION_NAME);
            List<Integer> pids = new ArrayList<>();
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    pids.add(rows.getInt(1));
                }
            }
            return pids;
        }
    }

    private void awaitNoListenerBackend() throws SQLException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!listenerBackends().isEmpty()) {
            assertThat(System.nanoTime()).as("the listener connection closes within " + DEADLINE)
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** Terminates the backend and waits (up to 5 s) until it is gone. */
    private boolean terminate(int pid) throws SQLException {
        try (PreparedStatement statement = inspector.prepareStatement("SELECT pg_terminate_backend(?, 5000)")) {
            statement.setInt(1, pid);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }
}
