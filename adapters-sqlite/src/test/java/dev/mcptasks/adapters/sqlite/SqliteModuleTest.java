package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.inject.AbstractModule;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import com.google.inject.spi.Message;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module binds one repository under both keys and the credential store on the same database, using the Clock and
 * IdGenerator bound by the root.
 */
class SqliteModuleTest {
    @TempDir
    Path dir;

    @Test
    void bindsOneSingletonUnderBothKeys() {
        Injector injector = injector(dir.resolve("tasks.db"));
        try (CloseableTaskRepository closeable = injector.getInstance(CloseableTaskRepository.class)) {
            TaskRepository repository = injector.getInstance(TaskRepository.class);
            assertThat(repository).isSameAs(closeable);
            repository.create(SqliteFixture.newTask("t1"));
            assertThat(closeable.find(TaskId.of("t1"))).isPresent();
        }
    }

    @Test
    void bindsOneCredentialStoreOnTheRepositorysDatabaseWhichTheRepositoryCloses() throws Exception {
        Path file = dir.resolve("tasks.db");
        Injector injector = injector(file);
        CloseableTaskRepository repository = injector.getInstance(CloseableTaskRepository.class);
        CredentialStore credentials = injector.getInstance(CredentialStore.class);
        assertThat(injector.getInstance(CredentialStore.class)).isSameAs(credentials);

        assertThat(credentials.compareAndSet("oauth:alpha", 0, "sealed".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(1);
        try (Connection connection = SeedRows.connect(file); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT key, version FROM credentials")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("oauth:alpha");
            assertThat(rows.getLong(2)).isEqualTo(1);
        }

        repository.close();
        assertThatThrownBy(() -> credentials.load("oauth:alpha")).isInstanceOf(RepositoryException.class)
                .hasMessageContaining("load credential 'oauth:alpha'").hasMessageContaining("'" + file + "'");
    }

    @Test
    void aFileThatCannotBeOpenedFailsTheStartOnceWithTheUsualError() {
        CreationException failure = catchThrowableOfType(() -> injector(dir), CreationException.class);

        Throwable first = failure.getErrorMessages().iterator().next().getCause();
        assertThat(first).isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageStartingWith("cannot open SQLite database '" + dir + "'");
        assertThat(failure.getErrorMessages()).extracting(Message::getCause)
                .as("one attempt to open: every key linked to the repository reports the same failure")
                .containsOnly(first);
    }

    private static Injector injector(Path file) {
        return Guice.createInjector(Stage.PRODUCTION, new SqliteModule(SqliteSettings.forFile(file)),
                new AbstractModule() {
                    @Override
                    protected void configure() {
                        binder().requireExplicitBindings();
                        bind(Clock.class).toInstance(new ManualClock());
                        bind(IdGenerator.class).toInstance(new SequentialIdGenerator());
                    }
                });
    }
}
