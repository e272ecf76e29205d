package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.postgres.SqlParams.Claims;
import dev.mcptasks.adapters.postgres.SqlParams.Deliveries;
import dev.mcptasks.adapters.postgres.SqlParams.Events;
import dev.mcptasks.adapters.postgres.SqlParams.Outcomes;
import dev.mcptasks.adapters.postgres.SqlParams.Snapshots;
import dev.mcptasks.adapters.postgres.SqlParams.Submits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.ibatis.binding.MapperMethod;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.scripting.defaults.DefaultParameterHandler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A batched write reads its own rows through the primary key, however wrong the statistics are about the live rows:
 * here they were taken when every row was finished (as after a bulk load), so "status IN (live statuses)" looks like
 * one row while a thousand are live. Reading every live row instead would cost in proportion to the claims in flight.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BatchPlanTest {
    private static final int ELEMENTS = 128;
    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    private PostgresSettings settings;

    @BeforeAll
    void seed() throws Exception {
        settings = PostgresTestDatabase.freshSchema();
        PostgresTaskRepositories.open(settings, new dev.mcptasks.testkit.ManualClock(NOW),
                new dev.mcptasks.testkit.SequentialIdGenerator(), dev.mcptasks.ports.repository.FencedWriteHook.NONE)
                .close();
        TaskSeeder seeder = new TaskSeeder(settings);
        seeder.terminal("done-", 20_000, NOW.minus(Duration.ofDays(30)));
        seeder.analyze();
        seeder.due("live-", 1_000, "working", false, NOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"renewAll", "recordSubmitAttempts", "applySubmittedAll", "applyOutcomes",
            "markAllDispatched", "finishNotifications"})
    void aBatchReadsItsRowsThroughThePrimaryKey(String statement) throws Exception {
        Map<String, Object> params = new MapperMethod.ParamMap<>();
        String[] ids = column(i -> "live-" + String.format("%08d", i + 1));
        String[] texts = column(i -> "x");
        String[] flags = column(i -> "true");
        params.put("k", statement.endsWith("Notifications") || statement.equals("markAllDispatched")
                ? new Deliveries(ids, texts, texts)
                : new Claims(ids, texts, texts, column(i -> "poll"), flags, flags, flags));
        params.put("b", statement.equals("applySubmittedAll")
                ? new Submits(texts, nulls(), texts, nulls(), nulls(), nulls(), flags, nulls())
                : new Outcomes(nulls(), nulls(), nulls()));
        params.put("s", new Snapshots(column(i -> "working"), nulls(), nulls(), flags, nulls(), nulls(), nulls(),
                nulls()));
        params.put("e", new Events(nulls(), nulls(), nulls(), nulls(), nulls(), nulls()));
        params.put("now", NOW);
        params.put("expiresAt", NOW.plusSeconds(60));

        String plan = explain(statement, params);

        assertThat(plan).contains("Index Scan using tasks_pkey on tasks").doesNotContain("tasks_status_id")
                .doesNotContain("Seq Scan on tasks");
    }

    private static String[] column(java.util.function.IntFunction<String> value) {
        String[] column = new String[ELEMENTS];
        Arrays.setAll(column, value);
        return column;
    }

    private static String[] nulls() {
        return new String[ELEMENTS];
    }

    /** EXPLAIN of a mapper statement exactly as MyBatis renders and binds it. */
    private String explain(String statement, Map<String, Object> params) throws Exception {
        MappedStatement mapped = PostgresStore.mybatis().getMappedStatement(TaskMapper.class.getName() + "."
                + statement);
        BoundSql bound = mapped.getBoundSql(params);
        List<String> lines = new ArrayList<>();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement explain = connection.prepareStatement("EXPLAIN " + bound.getSql())) {
            new DefaultParameterHandler(mapped, params, bound).setParameters(explain);
            try (ResultSet rows = explain.executeQuery()) {
                while (rows.next()) {
                    lines.add(rows.getString(1));
                }
            }
        }
        return String.join("\n", lines);
    }
}
