package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file made by an earlier release is brought to the newest schema with its rows intact and usable. */
class SqliteMigrationTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    @Test
    void aVersionTwoFileIsMigratedKeepingItsRows() throws Exception {
        Path file = dir.resolve("tasks.db");
        long now = clock.now().toEpochMilli();
        try (Connection connection = SeedRows.connect(file); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY NOT NULL,"
                    + " script TEXT NOT NULL, applied_at INTEGER NOT NULL)");
            for (int version = 1; version <= 2; version++) {
                String script = SchemaMigrator.SCRIPTS.get(version - 1);
                for (String sql : SchemaMigrator.statements(load(script))) {
                    statement.execute(sql);
                }
                statement.execute("INSERT INTO schema_version VALUES (" + version + ", '" + script + "', 0)");
            }
            statement.execute("INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at, status,"
                    + " updated_at, next_control_at, remote_task_id, protocol_version) VALUES ('task-old', 'srv',"
                    + " 'tool', '{}', 'mcp-tasks', " + now + ", 'input_required', " + now + ", " + (now + 3_600_000)
                    + ", 'r-old', '2025-11-25')");
        }

        try (CloseableTaskRepository repository = SqliteFixture.open(file, clock, new SequentialIdGenerator())) {
            TaskRecord old = repository.find(TaskId.of("task-old")).orElseThrow();
            assertThat(old.state().inputResponsesJson()).isNull();
            assertThat(old.state().requestState()).isNull();
            assertThat(old.state().endpointSession()).isNull();
            assertThat(old.definition().trace()).as("a row of an earlier release continues no trace").isNull();
            assertThat(repository.answerInput(old.id(), "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
            assertThat(repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, WorkerId.of("w"), 10,
                    Duration.ofSeconds(60), Duration.ofSeconds(30), Set.of())))
                    .extracting(claimed -> claimed.task().state().inputResponsesJson())
                    .containsExactly("{\"size\":3}");
        }
        try (Connection connection = SeedRows.connect(file); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT MAX(version) FROM schema_version")) {
            rows.next();
            assertThat(rows.getInt(1)).isEqualTo(SchemaMigrator.SCRIPTS.size());
        }
    }

    private static String load(String script) throws IOException {
        try (InputStream in = SchemaMigrator.class.getClassLoader()
                .getResourceAsStream("dev/mcptasks/adapters/sqlite/migrations/" + script)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
