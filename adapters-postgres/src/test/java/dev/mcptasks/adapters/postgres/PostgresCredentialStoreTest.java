package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.testkit.SequentialIdGenerator;
import dev.mcptasks.testkit.contract.CredentialStoreContract;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Runs the credential store contract on a fresh schema of the test server; the peer has a pool of its own. Also: a
 * server that stops taking connections gives the store's usual one-line unavailability error.
 */
class PostgresCredentialStoreTest extends CredentialStoreContract {
    private final List<PostgresStore> opened = new ArrayList<>();
    private PostgresSettings settings;

    @Override
    protected CredentialStore createStore(Clock clock) {
        settings = PostgresTestDatabase.freshSchema();
        return new PostgresCredentialStore(open(settings), clock);
    }

    @Override
    protected CredentialStore openPeer(Clock clock) {
        return new PostgresCredentialStore(open(settings), clock);
    }

    @AfterEach
    void closeStores() {
        opened.forEach(PostgresStore::close);
    }

    @Test
    void aServerThatStopsTakingConnectionsIsUnavailableNamingWhere() throws Exception {
        PostgresSettings fresh = PostgresTestDatabase.freshDatabase();
        PostgresSettings quick = new PostgresSettings(fresh.jdbcUrl(), fresh.user(), fresh.password(), 2,
                Duration.ofSeconds(1));
        CredentialStore credentials = new PostgresCredentialStore(open(quick), clock);
        byte[] sealed = "sealed".getBytes(StandardCharsets.UTF_8);
        assertThat(credentials.compareAndSet(KEY, 0, sealed)).isEqualTo(1);

        // from the server's maintenance database: a database cannot disallow connections to itself
        String url = quick.jdbcUrl();
        String database = url.substring(url.lastIndexOf('/') + 1);
        PostgresSettings maintenance = new PostgresSettings(url.substring(0, url.lastIndexOf('/') + 1) + "postgres",
                quick.user(), quick.password(), 1, quick.connectTimeout());
        try (Connection admin = PostgresTestDatabase.connect(maintenance);
                Statement statement = admin.createStatement()) {
            statement.execute("ALTER DATABASE " + database + " ALLOW_CONNECTIONS false");
            statement.execute("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '"
                    + database + "'");
        }

        assertThatThrownBy(() -> credentials.load(KEY)).isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("PostgreSQL at " + quick.location() + " is unreachable")
                .hasMessageContaining("load credential '" + KEY + "'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> credentials.compareAndSet(KEY, 1, sealed))
                .isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("write credential '" + KEY + "' from version 1");
    }

    /** As on SQLite: a credential write on a thread in a group transaction joins it, and is undone with it. */
    @Test
    void aWriteOnAThreadInAGroupTransactionJoinsIt() {
        try (CloseableTaskRepository repository = PostgresTaskRepositories.open(PostgresTestDatabase.freshSchema(),
                clock, new SequentialIdGenerator(), FencedWriteHook.NONE)) {
            CredentialStore credentials = ((PostgresTaskRepository) repository).credentials();
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

    private PostgresStore open(PostgresSettings settings) {
        PostgresStore store = PostgresStore.open(settings);
        opened.add(store);
        return store;
    }
}
