package dev.mcptasks.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The module binds one repository under both keys, using the Clock and IdGenerator bound by the root. */
class SqliteModuleTest {
    @TempDir
    Path dir;

    @Test
    void bindsOneSingletonUnderBothKeys() {
        Injector injector = Guice.createInjector(Stage.PRODUCTION,
                new SqliteModule(SqliteSettings.forFile(dir.resolve("tasks.db"))), new AbstractModule() {
                    @Override
                    protected void configure() {
                        binder().requireExplicitBindings();
                        bind(Clock.class).toInstance(new ManualClock());
                        bind(IdGenerator.class).toInstance(new SequentialIdGenerator());
                    }
                });
        try (CloseableTaskRepository closeable = injector.getInstance(CloseableTaskRepository.class)) {
            TaskRepository repository = injector.getInstance(TaskRepository.class);
            assertThat(repository).isSameAs(closeable);
            repository.create(SqliteFixture.newTask("t1"));
            assertThat(closeable.find(TaskId.of("t1"))).isPresent();
        }
    }
}
