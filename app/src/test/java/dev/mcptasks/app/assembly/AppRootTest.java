package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.adapters.postgres.PostgresModule;
import dev.mcptasks.adapters.sqlite.SqliteModule;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.app.config.DatabaseConfig;
import dev.mcptasks.core.runtime.WorkerRuntime;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.system.SystemClock;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AppRootTest {
    @TempDir
    Path dir;

    private AppConfig config(String servers) {
        String json = "{\"database\": {\"url\": \"jdbc:sqlite:" + dir.resolve("tasks.db") + "\"}, \"mcpServers\": {"
                + servers + "}}";
        return new ConfigLoader(Map.<String, String>of()::get, dir).parse("test.json", json);
    }

    @Test
    void theStoreModuleIsChosenWholeByTheUrl() {
        assertThat(StoreModules.forDatabase(new DatabaseConfig("jdbc:sqlite:x.db", null, null)))
                .isInstanceOf(SqliteModule.class);
        assertThat(StoreModules.forDatabase(new DatabaseConfig("jdbc:postgresql://h/db", "u", "p")))
                .isInstanceOf(PostgresModule.class);
        assertThatThrownBy(() -> StoreModules.forDatabase(new DatabaseConfig("jdbc:sqlite::memory:", null, null)))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("database.url:");
    }

    @Test
    void aClientPersistsThroughTheChosenStore() {
        AppConfig config = config("\"local\": {\"command\": \"node\"}");
        String id;
        try (Application app = AppRoot.production().openClient(config)) {
            TaskRecord task = app.get(TaskService.class).submit("local", "echo", "{}");
            id = task.id().value();
            assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
            assertThat(app.get(Clock.class)).isInstanceOf(SystemClock.class);
        }
        try (Application app = AppRoot.production().openClient(config)) {
            assertThat(app.get(TaskService.class).find(dev.mcptasks.domain.TaskId.of(id))).isPresent();
        }
    }

    @Test
    void aWorkerGetsSessionsDriversAndItsRuntime() {
        AppConfig config = config("\"local\": {\"command\": \"node\"}, \"remote\": {\"url\": \"http://127.0.0.1:1/mcp\"},"
                + "\"tools\": {\"url\": \"http://127.0.0.1:1/mcp\", \"driver\": \"ordinary-tools\","
                + " \"toolset\": {\"submit\": \"a\", \"status\": \"b\", \"cancel\": \"c\"}}");
        try (Application app = AppRoot.production().openWorker(config, WorkerId.of("w1"))) {
            assertThat(app.get(WorkerRuntime.class).workerId()).isEqualTo(WorkerId.of("w1"));
            assertThat(app.get(McpSessions.class).settings("remote")).isPresent();
            TaskDriverRegistry drivers = app.get(TaskDriverRegistry.class);
            assertThat(drivers.driverFor("local").name()).isEqualTo("mcp-tasks");
            assertThat(drivers.driverFor("tools").name()).isEqualTo("ordinary-tools");
        }
    }
}
