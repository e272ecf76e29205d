package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.binding.MapperMethod;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.scripting.defaults.DefaultParameterHandler;
import org.apache.ibatis.scripting.defaults.RawSqlSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What keeps the per-task statements cheap on the worker's side: SQL parsed once, rows read by hand and whole. */
class HotPathStatementsTest {

    /** Statements run once or more per task: a dynamic one would be re-rendered and re-parsed on every call. */
    @ParameterizedTest
    @ValueSource(strings = {"insertTask", "renew", "recordSubmitAttempt", "recordProgress", "applySubmitted", "applyOutcome",
            "claimNotifications", "claimNotificationsDispatched", "markDispatched", "settleNotification", "retryNotification", "releaseNotification",
            "selectTask", "selectTaskForUpdate", "notifyWork", "renewAll", "recordSubmitAttempts",
            "applySubmittedAll", "applyOutcomes", "markAllDispatched", "finishNotifications"})
    void perTaskStatementsAreParsedOnce(String statement) {
        assertThat(PostgresStore.mybatis().getMappedStatement(TaskMapper.class.getName() + "." + statement)
                .getSqlSource()).isInstanceOf(RawSqlSource.class);
    }

    @Test
    void theRowReaderReadsEveryColumnOfTheTasksTable() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        SequentialIdGenerator ids = new SequentialIdGenerator();
        try (CloseableTaskRepository repository = PostgresTaskRepositories.open(settings,
                new ManualClock(Instant.parse("2026-01-01T00:00:00Z")), ids, FencedWriteHook.NONE)) {
            repository.create(new NewTask(ids.newTaskId(), "srv", "tool", "{}", "mcp-tasks", null));
        }
        try (Connection connection = PostgresTestDatabase.connect(settings);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT * FROM tasks")) {
            Set<String> columns = new HashSet<>();
            for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                columns.add(rows.getMetaData().getColumnLabel(i));
            }
            assertThat(rows.next()).isTrue();
            List<String> read = new ArrayList<>();

            TaskRowReader.read(recording(rows, read));

            assertThat(read).containsExactlyInAnyOrderElementsOf(columns);
        }
    }

    /** A delivery claim reads back what a NotificationClaim holds (and the due time it is sorted by), not the row. */
    @Test
    void theNotificationClaimReturnsOnlyTheDeliveryColumns() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        PostgresTaskRepositories.open(settings, new ManualClock(now), new SequentialIdGenerator(),
                FencedWriteHook.NONE).close();
        new TaskSeeder(settings).notificationDue("notify-", 1, now);
        Map<String, Object> params = new MapperMethod.ParamMap<>();
        params.put("worker", "w");
        params.put("now", now);
        params.put("expiresAt", now.plusSeconds(60));
        params.put("tokens", new String[] {"t1"});
        params.put("limit", 1);
        MappedStatement mapped = PostgresStore.mybatis().getMappedStatement(TaskMapper.class.getName()
                + ".claimNotifications");
        BoundSql bound = mapped.getBoundSql(params);
        List<String> columns = new ArrayList<>();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement claim = connection.prepareStatement(bound.getSql())) {
            new DefaultParameterHandler(mapped, params, bound).setParameters(claim);
            try (ResultSet rows = claim.executeQuery()) {
                assertThat(rows.next()).isTrue();
                for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                    columns.add(rows.getMetaData().getColumnLabel(i));
                }
            }
        }

        assertThat(columns).containsExactlyInAnyOrder("id", "notification_lease_owner", "notification_lease_token",
                "notification_lease_expires_at", "dispatch_version", "dispatch_event", "attempt",
                "next_notification_at");
    }

    /** The result set, recording the column labels read from it. */
    private static ResultSet recording(ResultSet rows, List<String> read) {
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class},
                (proxy, method, args) -> {
                    if (args != null && args.length > 0 && args[0] instanceof String label
                            && method.getName().startsWith("get")) {
                        read.add(label);
                    }
                    try {
                        return method.invoke(rows, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
