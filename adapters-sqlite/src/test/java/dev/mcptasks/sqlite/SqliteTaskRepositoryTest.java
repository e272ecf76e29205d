package dev.mcptasks.sqlite;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.contract.TaskRepositoryContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Runs the repository contract on a SQLite file per test; the peer is a second repository with its own pools. */
class SqliteTaskRepositoryTest extends TaskRepositoryContract {
    @TempDir
    Path dir;

    @Override
    protected CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    @Override
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return SqliteTaskRepositories.open(SqliteFixture.settings(file()), clock, ids, hook);
    }

    private Path file() {
        return dir.resolve("tasks.db");
    }
}
