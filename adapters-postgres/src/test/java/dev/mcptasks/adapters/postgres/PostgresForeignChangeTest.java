package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Readers of one process are told of another process's changes over LISTEN/NOTIFY (V12): a gateway principal's row
 * whose status changed notifies {@code mcp_tasks_changes} once per transaction; a row of no principal does not.
 */
class PostgresForeignChangeTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");
    private static final Duration LEASE = Duration.ofSeconds(60);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private PostgresSettings settings;
    private CloseableTaskRepository reader;
    private CloseableTaskRepository writer;

    @BeforeEach
    void open() {
        settings = PostgresTestDatabase.freshSchema();
        reader = PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
        writer = PostgresTaskRepositories.open(settings, clock, ids, FencedWriteHook.NONE);
    }

    @AfterEach
    void close() {
        writer.close();
        reader.close();
    }

    @Test
    void anotherProcesssResultForAPrincipalsTaskIsTold() throws Exception {
        Semaphore told = new Semaphore(0);
        try (WorkSubscription ignored = reader.onForeignChange(new TaskChangeListener() {
            @Override
            public void changed(TaskId id) {
                told.release();
            }

            @Override
            public void changedSomewhere() {
                told.release();
            }
        })) {
            working(writer, "alice");

            assertThat(told.tryAcquire(10, TimeUnit.SECONDS)).as("told of the other process's commit").isTrue();
        }
    }

    @Test
    void onlyChangesOfAPrincipalsRowsNotifyAndOnceATransaction() throws Exception {
        try (Connection listening = PostgresTestDatabase.connect(settings);
                Statement statement = listening.createStatement()) {
            statement.execute("LISTEN " + WorkArrivalListener.CHANGES);

            working(writer, null); // no principal: nothing
            working(writer, "alice"); // the claim and the attempt change no told column; the result does

            List<PGNotification> received = drain(listening.unwrap(PGConnection.class));
            assertThat(received).hasSize(1);
            assertThat(received.get(0).getName()).isEqualTo(WorkArrivalListener.CHANGES);
        }
    }

    @Test
    void theStoresOwnChangesAreNotToldAsForeign() throws Exception {
        List<String> told = java.util.Collections.synchronizedList(new ArrayList<>());
        Semaphore foreign = new Semaphore(0);
        try (WorkSubscription ignored = reader.onForeignChange(new TaskChangeListener() {
            @Override
            public void changed(TaskId id) {
                told.add(id.value());
                foreign.release();
            }

            @Override
            public void changedSomewhere() {
                told.add("somewhere");
                foreign.release();
            }
        })) {
            // three results of the reader's own store, each its own transaction, then one of another process
            working(reader, "alice");
            working(reader, "alice");
            working(reader, "alice");
            working(writer, "bob");

            // one listener thread tells in commit order: once the other process's commit is told, the own ones
            // were received before it, and told then if they were told at all
            assertThat(foreign.tryAcquire(10, TimeUnit.SECONDS)).as("told of the other process's commit").isTrue();
            assertThat(foreign.availablePermits()).as("told once only: " + told).isZero();
        }
    }

    @Test
    void theOwnOriginIsLeftOutAndEveryOtherOriginOfTheSchemaTold() {
        assertThat(WorkArrivalListener.tells("public/me", "public", "me")).isFalse();
        assertThat(WorkArrivalListener.tells("public/other", "public", "me")).isTrue();
        assertThat(WorkArrivalListener.tells("public/", "public", "me")).as("a session without an origin").isTrue();
        assertThat(WorkArrivalListener.tells("public", "public", "me")).as("a notification before V14").isTrue();
        assertThat(WorkArrivalListener.tells("public/me", "public", null)).as("a listener of no origin").isTrue();
        assertThat(WorkArrivalListener.tells("other/x", "public", "me")).as("another schema").isFalse();
        assertThat(WorkArrivalListener.tells("publicx/y", "public", "me")).as("a longer schema name").isFalse();
        assertThat(WorkArrivalListener.tells(null, "public", "me")).isFalse();
    }

    @Test
    void aTaskCreatedClaimedWakesNoWorker() throws Exception {
        try (Connection listening = PostgresTestDatabase.connect(settings);
                Statement statement = listening.createStatement()) {
            statement.execute("LISTEN " + WorkArrivalListener.CHANNEL);

            writer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null, "alice")
                    .claimedBy(new CreateClaim(WORKER, ids.newClaimToken(), LEASE)));
            writer.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null, "alice"));

            // the second create's notification arrives after the first's would have: one in all
            assertThat(drain(listening.unwrap(PGConnection.class))).hasSize(1);
        }
    }

    /** A task of {@code principal} created, claimed, attempted and stored as created remotely (working). */
    private void working(CloseableTaskRepository repository, String principal) {
        TaskId id = ids.newTaskId();
        repository.create(new NewTask(id, "srv", "tool", "{}", "mcp-tasks", null, principal));
        ClaimedTask claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 1, LEASE,
                Duration.ofSeconds(30), Set.of())).get(0);
        Claim claim = claimed.claim();
        assertThat(claim.taskId()).isEqualTo(id);
        assertThat(repository.recordSubmitAttempt(claim)).isTrue();
        StoredSnapshot snapshot = new StoredSnapshot(TaskStatus.WORKING, "started", null, false, null, null, null);
        assertThat(repository.applySubmitted(claim, new SubmitWrite("r-" + id.value(), snapshot, null, "2025-11-25",
                null, clock.now().plusSeconds(5), null, null))).isTrue();
    }

    /** Every notification queued for the connection, once a wait has come back empty. */
    private static List<PGNotification> drain(PGConnection connection) throws SQLException {
        List<PGNotification> all = new ArrayList<>();
        while (true) {
            PGNotification[] batch = connection.getNotifications(500);
            if (batch == null || batch.length == 0) {
                return all;
            }
            all.addAll(List.of(batch));
        }
    }
}
