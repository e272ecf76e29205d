package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.contract.CredentialStoreContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the credential store contract on a SQLite file per test; the peer has pools of its own on the same file. */
class SqliteCredentialStoreTest extends CredentialStoreContract {
    @TempDir
    Path dir;

    private final List<SqliteDatabase> opened = new ArrayList<>();

    @Override
    protected CredentialStore createStore(Clock clock) {
        return new SqliteCredentialStore(open(clock), clock);
    }

    @Override
    protected CredentialStore openPeer(Clock clock) {
        return new SqliteCredentialStore(open(clock), clock);
    }

    @AfterEach
    void closeDatabases() {
        opened.forEach(SqliteDatabase::close);
    }

    /**
     * SQLite has one writer, held by a group transaction for its whole length: a credential write on that thread
     * joins it (a transaction of its own would wait for the thread's own lock), and is undone with it.
     */
    @Test
    void aWriteOnAThreadInAGroupTransactionJoinsIt() {
        try (CloseableTaskRepository repository = SqliteFixture.open(dir.resolve("grouped.db"), clock,
                new SequentialIdGenerator())) {
            CredentialStore credentials = ((SqliteTaskRepository) repository).credentials();
            byte[] sealed = "sealed".getBytes(StandardCharsets.UTF_8);

            assertThatThrownBy(() -> repository.inOneTransaction(() -> {
                assertThat(credentials.compareAndSet(KEY, 0, sealed)).isEqualTo(1);
                throw new IllegalStateException("the group fails");
            })).hasMessage("the group fails");
            assertThat(credentials.load(KEY)).as("rolled back with the group").isEmpty();

            assertThat(repository.inOneTransaction(() -> credentials.compareAndSet(KEY, 0, sealed))).isEqualTo(1);
            assertThat(credentials.load(KEY).orElseThrow().sealed()).isEqualTo(sealed);
        }
    }

    private SqliteDatabase open(Clock clock) {
        SqliteDatabase database = SqliteDatabase.open(SqliteFixture.settings(dir.resolve("tasks.db")), clock);
        opened.add(database);
        return database;
    }
}
