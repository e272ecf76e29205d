package dev.mcptasks.adapters.sqlite;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import java.nio.file.Path;
import java.time.Duration;

/** Opens repositories on a test's database file. */
final class SqliteFixture {
    private SqliteFixture() {}

    static SqliteSettings settings(Path file) {
        return new SqliteSettings(SqliteSettings.URL_PREFIX + file, Duration.ofSeconds(10), 2);
    }

    static CloseableTaskRepository open(Path file, Clock clock, IdGenerator ids) {
        return SqliteTaskRepositories.open(settings(file), clock, ids, FencedWriteHook.NONE);
    }

    static NewTask newTask(String id) {
        return new NewTask(TaskId.of(id), "srv", "tool", "{\"n\":1}", "mcp-tasks", null);
    }
}
