package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import com.google.inject.AbstractModule;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import com.google.inject.spi.Message;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.ports.repository.RepositoryException;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Start-up: concurrent migrations, schema versions, unreachable servers, settings and the Guice module. */
class PostgresStartupTest {
    private final ManualClock clock = new ManualClock();

    private CloseableTaskRepository open(PostgresSettings settings) {
        return PostgresTaskRepositories.open(settings, clock, new SequentialIdGenerator(), FencedWriteHook.NONE);
    }

    @Test
    void workersStartingTogetherMigrateTheSchemaExactlyOnce() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        int workers = 6;
        CyclicBarrier start = new CyclicBarrier(workers);
        List<CompletableFuture<CloseableTaskRepository>> opened = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            opened.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return open(settings);
            }));
        }
        for (CompletableFuture<CloseableTaskRepository> repository : opened) {
            repository.get(120, TimeUnit.SECONDS).close();
        }

        assertThat(schemaVersions(settings)).containsExactly("1:V1__tasks_and_workers.sql",
                "2:V2__task_creator.sql", "3:V3__input_rounds.sql", "4:V4__hot_updates.sql", "5:V5__credentials.sql",
                "6:V6__task_principal.sql", "7:V7__endpoint_session.sql", "8:V8__retention_and_audit.sql",
                "9:V9__trace_context.sql", "10:V10__front_sessions.sql",
                "11:V11__task_history.sql", "12:V12__change_notifications.sql",
                "13:V13__audit_append_only.sql", "14:V14__changes_name_their_origin.sql");
    }

    @Test
    void reopeningKeepsTheDataAndAppliesNothingTwice() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        SequentialIdGenerator ids = new SequentialIdGenerator();
        try (CloseableTaskRepository first = open(settings)) {
            first.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
        }
        try (CloseableTaskRepository second = open(settings)) {
            assertThat(second.list(dev.mcptasks.ports.repository.TaskQuery.all(10))).hasSize(1);
        }
        assertThat(schemaVersions(settings)).hasSize(SchemaMigrator.MIGRATIONS.size());
    }

    /** A store made by the previous release (schema version 2) keeps its rows and gains the input-round columns. */
    @Test
    void aVersionTwoSchemaIsMigratedKeepingItsRows() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement()) {
            migrateTo(statement, 2);
            statement.execute("INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at, status,"
                    + " updated_at, next_control_at, remote_task_id, protocol_version) VALUES ('task-old', 'srv',"
                    + " 'tool', '{}', 'mcp-tasks', now(), 'input_required', now(), now() + interval '1 hour',"
                    + " 'r-old', '2025-11-25')");
        }

        try (CloseableTaskRepository repository = open(settings)) {
            TaskRecord old = repository.find(TaskId.of("task-old")).orElseThrow();
            assertThat(old.state().inputResponsesJson()).isNull();
            assertThat(old.state().requestState()).isNull();
            assertThat(old.state().endpointSession()).isNull();
            assertThat(repository.answerInput(old.id(), "size", "3")).isEqualTo(AnswerOutcome.ACCEPTED);
            assertThat(repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, WorkerId.of("w"), 10,
                    Duration.ofSeconds(60), Duration.ofSeconds(30), Set.of())))
                    .extracting(claimed -> claimed.task().state().inputResponsesJson())
                    .containsExactly("{\"size\":3}");
        }
        assertThat(schemaVersions(settings)).hasSize(SchemaMigrator.MIGRATIONS.size());
    }

    /**
     * A version 8 store (before traces) gains the trace columns: its rows continue no trace, and a new task keeps the
     * context it was submitted with.
     */
    @Test
    void aVersionEightSchemaGainsTheTraceColumnsKeepingItsRows() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement()) {
            migrateTo(statement, 8);
            statement.execute("INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at, status,"
                    + " updated_at, next_control_at) VALUES ('task-old', 'srv', 'tool', '{}', 'mcp-tasks',"
                    + " timestamptz '2000-01-01 00:00:00+00', 'pending', timestamptz '2000-01-01 00:00:00+00',"
                    + " timestamptz '2000-01-01 00:00:00+00')");
        }

        TraceContext trace = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "k=v");
        try (CloseableTaskRepository repository = open(settings)) {
            assertThat(repository.find(TaskId.of("task-old")).orElseThrow().definition().trace()).isNull();
            repository.create(new NewTask(TaskId.of("task-new"), "srv", "tool", "{}", "mcp-tasks", null, null, trace));
            assertThat(repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WorkerId.of("w"), 10,
                    Duration.ofSeconds(60), Duration.ofSeconds(30), Set.of())))
                    .extracting(claimed -> claimed.task().id().value(), claimed -> claimed.task().definition().trace())
                    .containsExactlyInAnyOrder(tuple("task-old", null), tuple("task-new", trace));
        }
        assertThat(schemaVersions(settings)).hasSize(SchemaMigrator.MIGRATIONS.size())
                .contains("9:V9__trace_context.sql");
    }

    /** A version 3 store's deliveries in flight (pending, and claimed by a worker that died) are still claimed. */
    @Test
    void aVersionThreeSchemaKeepsItsUndeliveredEventsClaimable() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement()) {
            migrateTo(statement, 3);
            for (String status : List.of("pending", "claimed", "delivered")) {
                statement.execute("INSERT INTO tasks (id, server_name, tool_name, arguments, driver, created_at,"
                        + " status, updated_at, notification_status, event_version, notified_version,"
                        + " dispatch_version, event_payload, event_fingerprint, next_notification_at,"
                        + " notification_lease_owner, notification_lease_expires_at) VALUES ('task-" + status
                        + "', 'srv', 'tool', '{}', 'mcp-tasks', now(), 'completed', now(), '" + status + "', 1, "
                        + (status.equals("delivered") ? 1 : 0) + ", " + (status.equals("pending") ? 0 : 1)
                        + ", '{}', 'f', timestamptz '2000-01-01 00:00:00+00', "
                        + (status.equals("claimed") ? "'dead-worker', timestamptz '2000-01-01 00:00:01+00'"
                                : "NULL, NULL")
                        + ")");
            }
        }

        try (CloseableTaskRepository repository = open(settings)) {
            assertThat(repository.claimNotifications(new NotificationClaimRequest(WorkerId.of("w"), 10,
                    Duration.ofSeconds(60)))).extracting(claim -> claim.taskId().value())
                    .containsExactlyInAnyOrder("task-pending", "task-claimed");
        }
        assertThat(schemaVersions(settings)).hasSize(SchemaMigrator.MIGRATIONS.size());
    }

    /** Applies the first {@code version} migrations by hand, as an older release left the schema. */
    private static void migrateTo(Statement statement, int version) throws Exception {
        statement.execute("CREATE TABLE schema_version (version integer PRIMARY KEY,"
                + " script varchar(256) NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
        for (int applied = 1; applied <= version; applied++) {
            String script = SchemaMigrator.MIGRATIONS.get(applied - 1);
            try (InputStream in = SchemaMigrator.class.getResourceAsStream("migrations/" + script)) {
                statement.execute(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            statement.execute("INSERT INTO schema_version (version, script) VALUES (" + applied + ", '" + script
                    + "')");
        }
    }

    @Test
    void anUpToDateSchemaOpensWithoutWaitingForTheMigrationLock() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        open(settings).close();
        try (Connection holder = PostgresTestDatabase.connect(settings);
                Statement statement = holder.createStatement()) {
            // a peer in the middle of a (long) migration holds the lock
            statement.execute("SELECT pg_advisory_lock(" + SchemaMigrator.MIGRATION_LOCK_KEY + ")");
            CompletableFuture<CloseableTaskRepository> second = CompletableFuture.supplyAsync(() -> open(settings));
            try {
                second.get(30, TimeUnit.SECONDS).close();
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + SchemaMigrator.MIGRATION_LOCK_KEY + ")");
                second.handle((repository, error) -> {
                    if (repository != null) {
                        repository.close();
                    }
                    return null;
                }).get(60, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aSchemaNewerThanThisBuildIsRefusedByName() throws Exception {
        int future = SchemaMigrator.MIGRATIONS.size() + 1;
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        open(settings).close();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO schema_version (version, script) VALUES (" + future + ", 'V"
                    + future + "__future.sql')");
        }

        assertThatThrownBy(() -> open(settings)).isInstanceOf(RepositoryException.class)
                .isNotInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("schema version " + future + " is newer than this build supports ("
                        + SchemaMigrator.MIGRATIONS.size() + ")");
    }

    @Test
    void anUnreachableServerFailsFastNamingTheLocationButNotThePassword() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        PostgresSettings settings = new PostgresSettings("jdbc:postgresql://127.0.0.1:" + port
                + "/tasks?password=url-secret", "mcp", "s3cret-pw", 2, Duration.ofSeconds(1));

        long start = System.nanoTime();
        assertThatThrownBy(() -> open(settings)).isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + port + "/tasks")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret-pw", "url-secret"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void settingsNeverShowThePassword() {
        PostgresSettings settings = new PostgresSettings("jdbc:postgresql://db.example:6543/tasks?password=p1",
                "mcp", "p2", 4, Duration.ofSeconds(5));

        assertThat(settings.toString()).contains("db.example:6543/tasks", "user=mcp", "password=***")
                .doesNotContain("p1", "p2");
        assertThat(PostgresSettings.of("jdbc:postgresql://db/tasks", "u", null).location())
                .isEqualTo("db:5432/tasks");
        assertThatThrownBy(() -> PostgresSettings.of("jdbc:mysql://db/tasks", "u", "p"))
                .isInstanceOf(RepositoryException.class).hasMessageContaining("jdbc:postgresql://");
    }

    @Test
    void theModuleBindsOneSingletonUnderBothInterfaces() {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        Injector injector = Guice.createInjector(new PostgresModule(settings), new AbstractModule() {
            @Override
            protected void configure() {
                bind(Clock.class).toInstance(clock);
                bind(IdGenerator.class).toInstance(new SequentialIdGenerator());
            }
        });

        CloseableTaskRepository closeable = injector.getInstance(CloseableTaskRepository.class);
        try {
            assertThat(injector.getInstance(TaskRepository.class)).isSameAs(closeable);
            assertThat(closeable.countByStatus()).hasSize(6);
        } finally {
            closeable.close();
        }
    }

    @Test
    void theModuleBindsTheCredentialStoreOnTheRepositorysPoolWhichTheRepositoryCloses() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        Injector injector = Guice.createInjector(Stage.PRODUCTION, new PostgresModule(settings), roots());
        CloseableTaskRepository repository = injector.getInstance(CloseableTaskRepository.class);
        CredentialStore credentials = injector.getInstance(CredentialStore.class);
        assertThat(injector.getInstance(CredentialStore.class)).isSameAs(credentials);

        assertThat(credentials.compareAndSet("oauth:alpha", 0, "sealed".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(1);
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT key, version FROM credentials")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("oauth:alpha");
            assertThat(rows.getLong(2)).isEqualTo(1);
        }

        repository.close();
        assertThatThrownBy(() -> credentials.load("oauth:alpha")).isInstanceOf(RepositoryException.class)
                .hasMessageContaining("load credential 'oauth:alpha'").hasMessageContaining(settings.location());
    }

    @Test
    void anUnreachableServerFailsTheModulesStartOnce() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        PostgresSettings settings = new PostgresSettings("jdbc:postgresql://127.0.0.1:" + port + "/tasks", "mcp",
                "pw", 2, Duration.ofSeconds(1));

        CreationException failure = catchThrowableOfType(
                () -> Guice.createInjector(Stage.PRODUCTION, new PostgresModule(settings), roots()),
                CreationException.class);

        Throwable first = failure.getErrorMessages().iterator().next().getCause();
        assertThat(first).isInstanceOf(RepositoryUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + port + "/tasks");
        assertThat(failure.getErrorMessages()).extracting(Message::getCause)
                .as("one attempt to connect: every key linked to the repository reports the same failure")
                .containsOnly(first);
    }

    private AbstractModule roots() {
        return new AbstractModule() {
            @Override
            protected void configure() {
                binder().requireExplicitBindings();
                bind(Clock.class).toInstance(clock);
                bind(IdGenerator.class).toInstance(new SequentialIdGenerator());
            }
        };
    }

    private static List<String> schemaVersions(PostgresSettings settings) throws Exception {
        List<String> versions = new ArrayList<>();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT version, script FROM schema_version ORDER BY 1")) {
            while (rows.next()) {
                versions.add(rows.getInt(1) + ":" + rows.getString(2));
            }
        }
        return versions;
    }
}
