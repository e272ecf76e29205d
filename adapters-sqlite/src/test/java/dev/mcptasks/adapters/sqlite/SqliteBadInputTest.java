package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.DuplicateTaskException;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TransientRepositoryException;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files that cannot be used, integrity violations and a busy database: typed errors, nothing half-written. */
class SqliteBadInputTest {
    private static final WorkerId WORKER = WorkerId.of("w1");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();

    @Test
    void aDirectoryIsNotADatabaseFile() {
        assertThatThrownBy(() -> SqliteFixture.open(dir, clock, ids))
                .isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("cannot open SQLite database '" + dir + "'");
    }

    @Test
    void aFileInAMissingDirectoryCannotBeCreated() {
        Path file = dir.resolve("missing/sub/tasks.db");
        assertThatThrownBy(() -> SqliteFixture.open(file, clock, ids))
                .isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("'" + file + "'");
        assertThat(dir.resolve("missing")).doesNotExist();
    }

    @Test
    void aFileThatIsNotADatabaseIsUnavailable() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "these are notes, not a database; ".repeat(200));
        assertThatThrownBy(() -> SqliteFixture.open(file, clock, ids))
                .isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("'" + file + "'");
    }

    @Test
    void migrationsRunOnceAndARestartChangesNothing() throws Exception {
        Path file = dir.resolve("tasks.db");
        SqliteFixture.open(file, clock, ids).close();
        try (CloseableTaskRepository again = SqliteFixture.open(file, clock, ids)) {
            again.create(SqliteFixture.newTask("t1"));
        }
        try (CloseableTaskRepository third = SqliteFixture.open(file, clock, ids)) {
            assertThat(third.find(TaskId.of("t1"))).isPresent();
        }
        assertThat(query(file, "SELECT COUNT(*) FROM schema_version")).isEqualTo(SchemaMigrator.SCRIPTS.size());
    }

    @Test
    void aSchemaNewerThanThisBuildIsRefusedByName() throws Exception {
        Path file = dir.resolve("tasks.db");
        SqliteFixture.open(file, clock, ids).close();
        execute(file, "INSERT INTO schema_version (version, script, applied_at) VALUES (99, 'V099__future.sql', 0)");
        assertThatThrownBy(() -> SqliteFixture.open(file, clock, ids))
                .isInstanceOf(RepositoryException.class)
                .hasMessageContaining("schema version 99")
                .hasMessageContaining("'" + file + "'");
    }

    @Test
    void aDuplicateRemoteIdIsADuplicateAndLeavesTheSecondRowWhole() {
        try (CloseableTaskRepository repository = SqliteFixture.open(dir.resolve("tasks.db"), clock, ids)) {
            repository.create(SqliteFixture.newTask("t1"));
            repository.create(SqliteFixture.newTask("t2"));
            Claim first = claim(repository, "t1");
            Claim second = claim(repository, "t2");
            assertThat(repository.applySubmitted(first, submitted("r1"))).isTrue();
            TaskRecord before = repository.find(TaskId.of("t2")).orElseThrow();

            assertThatThrownBy(() -> repository.applySubmitted(second, submitted("r1")))
                    .isInstanceOf(DuplicateTaskException.class)
                    .hasMessageContaining("remote task id 'r1'");
            assertThat(repository.find(TaskId.of("t2"))).contains(before);
            assertThat(repository.applySubmitted(second, submitted("r2"))).isTrue();
        }
    }

    @Test
    void otherIntegrityViolationsAreNeverReportedAsDuplicates() throws Exception {
        Path file = dir.resolve("tasks.db");
        SqliteFixture.open(file, clock, ids).close();
        SQLException check = null;
        try {
            execute(file, "INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at, status,"
                    + " updated_at) VALUES ('t1', 's', 't', '{}', 'd', 0, 'sleeping', 0)");
        } catch (SQLException e) {
            check = e;
        }
        assertThat((Throwable) check).as("the CHECK constraint on status").isNotNull();
        RepositoryException translated = SqliteErrors.translate("insert", file.toString(), check);
        assertThat(translated).isExactlyInstanceOf(RepositoryException.class)
                .hasMessageContaining("CHECK constraint failed");
    }

    @Test
    void aBusyDatabaseIsTransientAndTheWriteIsNotHalfDone() throws Exception {
        Path file = dir.resolve("tasks.db");
        SqliteSettings impatient = new SqliteSettings(SqliteSettings.URL_PREFIX + file, Duration.ofMillis(100), 1);
        try (CloseableTaskRepository repository =
                SqliteTaskRepositories.open(impatient, clock, ids, FencedWriteHook.NONE)) {
            try (Connection other = SeedRows.connect(file); Statement lock = other.createStatement()) {
                lock.execute("BEGIN IMMEDIATE");
                assertThatThrownBy(() -> repository.create(SqliteFixture.newTask("t1")))
                        .isInstanceOf(TransientRepositoryException.class)
                        .hasMessageContaining("busy");
                lock.execute("ROLLBACK");
            }
            assertThat(repository.find(TaskId.of("t1"))).isEmpty();
            assertThat(repository.create(SqliteFixture.newTask("t1")).status()).isEqualTo(TaskStatus.PENDING);
        }
    }

    @Test
    void settingsNameWhatIsWrong() {
        assertThatThrownBy(() -> new SqliteSettings("jdbc:postgresql://x/y", Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:sqlite:PATH");
        assertThatThrownBy(() -> new SqliteSettings("jdbc:sqlite::memory:", Duration.ofSeconds(1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("in-memory");
        assertThatThrownBy(() -> new SqliteSettings("jdbc:sqlite:/x.db", Duration.ofSeconds(-1), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("busy timeout");
        assertThatThrownBy(() -> new SqliteSettings("jdbc:sqlite:/x.db", Duration.ofSeconds(1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reader pool size");
        assertThat(new SqliteSettings("jdbc:sqlite:/data/t.db?foo=1", Duration.ofSeconds(1), 1).path())
                .isEqualTo("/data/t.db");
    }

    private Claim claim(CloseableTaskRepository repository, String id) {
        Set<TaskId> others = Set.of(TaskId.of(id.equals("t1") ? "t2" : "t1"));
        return repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 1,
                Duration.ofSeconds(60), Duration.ofSeconds(30), others)).get(0).claim();
    }

    private SubmitWrite submitted(String remoteId) {
        return new SubmitWrite(remoteId, new StoredSnapshot(TaskStatus.WORKING, null, null, false, null, null, null),
                null, "2025-11-25", null, clock.now(), null);
    }

    private static void execute(Path file, String sql) throws SQLException {
        try (Connection connection = SeedRows.connect(file); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static int query(Path file, String sql) throws SQLException {
        try (Connection connection = SeedRows.connect(file); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
