package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data-version watcher runs only while someone listens, and a write's local signal inside a group transaction
 * waits for the group's commit (and is dropped when it rolls back).
 */
class SqliteWorkArrivalsTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    @Test
    void theWatcherThreadRunsOnlyWhileSomeoneListens() {
        Path file = dir.resolve("tasks.db");
        try (CloseableTaskRepository repository = SqliteFixture.open(file, clock, new SequentialIdGenerator())) {
            assertThat(watchers(file)).as("before any subscription").isZero();
            WorkSubscription first = repository.onWorkArrival(() -> { });
            WorkSubscription second = repository.onWorkArrival(() -> { });
            assertThat(watchers(file)).as("two listeners, one watcher").isEqualTo(1);
            first.close();
            first.close(); // idempotent: must not remove the other listener
            assertThat(watchers(file)).as("one listener left").isEqualTo(1);
            second.close();
            assertThat(watchers(file)).as("after the last listener left").isZero();

            repository.onWorkArrival(() -> { });
            assertThat(watchers(file)).as("subscribed again").isEqualTo(1);
        }
        assertThat(watchers(file)).as("after the repository closed").isZero();
    }

    @Test
    void anotherProcesssCommitIsToldToTaskChangeListenersAndTheWatcherStopsWithThem() throws Exception {
        Path file = dir.resolve("tasks.db");
        try (CloseableTaskRepository reader = SqliteFixture.open(file, clock, new SequentialIdGenerator());
                CloseableTaskRepository writer = SqliteFixture.open(file, clock, new SequentialIdGenerator())) {
            CountDownLatch told = new CountDownLatch(1);
            WorkSubscription changes = reader.onForeignChange(new TaskChangeListener() {
                @Override
                public void changed(TaskId id) {}

                @Override
                public void changedSomewhere() {
                    told.countDown();
                }
            });
            assertThat(watchers(file)).as("a change listener starts the watcher").isEqualTo(1);

            writer.create(new NewTask(TaskId.of("t-1"), "srv",
                    "tool", "{}", "mcp-tasks", null));

            assertThat(told.await(10, TimeUnit.SECONDS)).as("told of the commit").isTrue();
            changes.close();
            assertThat(watchers(file)).as("after the last listener left").isZero();
        }
    }

    @Test
    void aCallbackInsideAGroupRunsAfterItsCommitAndNeverAfterARollback() {
        try (SqliteDatabase database = SqliteDatabase.open(SqliteFixture.settings(dir.resolve("tasks.db")), clock)) {
            List<String> calls = new ArrayList<>();
            database.afterCommit(() -> calls.add("alone"));
            assertThat(calls).as("outside a group: at once").containsExactly("alone");

            database.inOneTransaction(() -> {
                database.inOneTransaction(() -> {
                    database.afterCommit(() -> calls.add("nested"));
                    return null;
                });
                assertThat(calls).as("not before the outermost commit").containsExactly("alone");
                return null;
            });
            assertThat(calls).containsExactly("alone", "nested");

            assertThatThrownBy(() -> database.inOneTransaction(() -> {
                database.afterCommit(() -> calls.add("rolled back"));
                throw new IllegalStateException("boom");
            })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
            assertThat(calls).containsExactly("alone", "nested");
        }
    }

    /**
     * A write of this process tells of another connection's commit made since its previous write (the watcher takes
     * file changes close to this process's own writes for their echo), and so does a check between writes; its own
     * commits, and writes with no other commit between them, tell nothing, and a commit is told once.
     */
    @Test
    void aWriteTellsOfAnotherConnectionsCommitSinceTheLastOne() {
        Path file = dir.resolve("tasks.db");
        try (SqliteDatabase ours = SqliteDatabase.open(SqliteFixture.settings(file), clock);
                SqliteDatabase theirs = SqliteDatabase.open(SqliteFixture.settings(file), clock)) {
            AtomicInteger told = new AtomicInteger();
            ours.onForeignCommit(told::incrementAndGet);
            insert(ours, "CREATE TABLE probe (x INTEGER)");
            insert(ours, "INSERT INTO probe VALUES (1)");
            assertThat(told).as("only our own commits").hasValue(0);

            insert(theirs, "INSERT INTO probe VALUES (2)");
            insert(ours, "INSERT INTO probe VALUES (3)");
            assertThat(told).as("their commit, told by our next write").hasValue(1);

            insert(ours, "INSERT INTO probe VALUES (4)");
            assertThat(told).as("nothing new since").hasValue(1);

            // between writes, asked after file changes taken for our own echo
            ours.checkForeignCommits();
            assertThat(told).as("still nothing new").hasValue(1);
            insert(theirs, "INSERT INTO probe VALUES (5)");
            ours.checkForeignCommits();
            assertThat(told).as("their commit, told without a write of ours").hasValue(2);
            insert(ours, "INSERT INTO probe VALUES (6)");
            assertThat(told).as("told once").hasValue(2);
        }
    }

    private static void insert(SqliteDatabase database, String sql) {
        database.write("probe", session -> {
            try {
                session.execute(sql);
                return null;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Another process's commit is seen when the database's files change, not only at the next periodic look: with
     * looks an hour apart, the commit is still told within seconds.
     */
    @Test
    void anotherProcesssCommitWakesTheWatcherThroughTheFileWatch() throws Exception {
        Path file = dir.resolve("tasks.db");
        try (CloseableTaskRepository writer = SqliteFixture.open(file, clock, new SequentialIdGenerator());
                WorkArrivals arrivals = new WorkArrivals(() -> SeedRows.connect(file), file.toString(), () -> 0,
                        java.time.Duration.ofHours(1))) {
            CountDownLatch told = new CountDownLatch(1);
            arrivals.subscribe(told::countDown);

            writer.create(new NewTask(TaskId.of("t-1"), "srv", "tool", "{}", "mcp-tasks", null));

            assertThat(told.await(10, TimeUnit.SECONDS)).as("told of the commit long before the next look").isTrue();
        }
    }

    /**
     * The watcher's own connection sees this process's commits change the data version too: it asks the writer
     * connection, which knows its own commits from others', instead of signalling them as work (every such signal
     * cost the worker a whole pass of scans, and a gateway's waiters a read of every row they wait on). Another
     * connection's commit is still signalled.
     */
    @Test
    void theWatcherSignalsNoWorkForThisProcesssOwnCommitsButStillForAnothers() throws Exception {
        Path file = dir.resolve("tasks.db");
        try (SqliteDatabase ours = SqliteDatabase.open(SqliteFixture.settings(file), clock);
                SqliteDatabase theirs = SqliteDatabase.open(SqliteFixture.settings(file), clock);
                WorkArrivals arrivals = new WorkArrivals(ours::openReadConnection, file.toString(), ours::writeActivity)) {
            ours.onForeignCommit(arrivals::foreignCommitSeen);
            arrivals.checkEchoesWith(ours::checkForeignCommits);
            insert(ours, "CREATE TABLE probe (x INTEGER)");
            AtomicInteger signals = new AtomicInteger();
            CountDownLatch signalled = new CountDownLatch(1);
            arrivals.subscribe(() -> {
                signals.incrementAndGet();
                signalled.countDown();
            });

            for (int i = 0; i < 20; i++) {
                insert(ours, "INSERT INTO probe VALUES (" + i + ")");
            }
            // the watcher's looks after the last write are the work a spurious signal would come from
            long looked = arrivals.looks();
            awaitLooks(arrivals, looked + 3);
            assertThat(signals).as("signals for our own commits alone").hasValue(0);

            insert(theirs, "INSERT INTO probe VALUES (100)");
            assertThat(signalled.await(10, TimeUnit.SECONDS)).as("another connection's commit is signalled").isTrue();
        }
    }

    private static void awaitLooks(WorkArrivals arrivals, long looks) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (arrivals.looks() < looks) {
            assertThat(System.nanoTime()).as("the watcher looked %d times", looks).isLessThan(deadline);
            Thread.sleep(1);
        }
    }

    private static long watchers(Path file) {
        String name = "sqlite-work-arrivals " + file;
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().equals(name) && thread.isAlive())
                .count();
    }
}
