package dev.mcptasks.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.sqlite.SqlParams.ClaimScan;
import dev.mcptasks.testkit.ManualClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.ibatis.binding.MapperMethod;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.scripting.defaults.DefaultParameterHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The claim scans read only their partial, covering index (finished rows are not in it; leased rows are skipped on
 * the index entry), and each claim UPDATE finds its row by primary key.
 */
class SqliteClaimPlanTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private SqliteDatabase database;

    @BeforeEach
    void open() throws Exception {
        database = SqliteDatabase.open(SqliteFixture.settings(dir.resolve("tasks.db")), clock);
        SeedRows.terminal(dir.resolve("tasks.db"), 1_000, clock.now().toEpochMilli());
    }

    @AfterEach
    void close() {
        database.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"selectSubmitCandidates", "selectPollCandidates", "selectCancelCandidates"})
    void controlScansSearchThePartialDueIndex(String statement) throws Exception {
        assertUsesIndex(statement, "tasks_control_due", false);
        assertUsesIndex(statement, "tasks_control_due", true);
    }

    @ParameterizedTest
    @ValueSource(strings = {"claimSubmit", "claimPoll", "claimCancel", "claimNotify"})
    void claimUpdatesFindTheirRowByPrimaryKey(String statement) throws Exception {
        for (boolean analyzed : new boolean[] {false, true}) {
            List<String> plan = plan(statement, analyzed);
            System.out.println(statement + (analyzed ? " (analyzed)" : "") + ": " + plan);
            assertThat(plan).as("plan of %s", statement)
                    .anyMatch(line -> line.startsWith("SEARCH tasks USING INDEX sqlite_autoindex_tasks_1 (id=?)"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"selectNotifyCandidates"})
    void notificationScanSearchesThePartialOutboxIndex(String statement) throws Exception {
        assertUsesIndex(statement, "tasks_outbox_due", false);
        assertUsesIndex(statement, "tasks_outbox_due", true);
    }

    private void assertUsesIndex(String statement, String index, boolean analyzed) throws Exception {
        List<String> plan = plan(statement, analyzed);
        System.out.println(statement + (analyzed ? " (analyzed)" : "") + ": " + plan);
        String tasksLine = plan.stream().filter(line -> line.matches("(SCAN|SEARCH) tasks\\b.*")).findFirst()
                .orElseThrow(() -> new AssertionError("no access to tasks in plan " + plan));
        assertThat(tasksLine).as("plan %s (analyzed: %s)", plan, analyzed)
                .startsWith("SEARCH tasks USING COVERING INDEX " + index);
        assertThat(plan).as("the index order serves ORDER BY").noneMatch(line -> line.contains("TEMP B-TREE"));
    }

    /** EXPLAIN QUERY PLAN of the mapped statement, bound as the repository binds it (with one excluded id). */
    private List<String> plan(String statement, boolean analyzed) throws Exception {
        MappedStatement mapped = database.configuration()
                .getMappedStatement("dev.mcptasks.sqlite.TaskMapper." + statement);
        MapperMethod.ParamMap<Object> parameters = new MapperMethod.ParamMap<>();
        long now = clock.now().toEpochMilli();
        parameters.put("s", new ClaimScan("w1", now, now + 60_000, now - 30_000, List.of("x1"), 50));
        parameters.put("id", "t1");
        parameters.put("token", "k1");
        BoundSql bound = mapped.getBoundSql(parameters);
        try (Connection connection = SeedRows.connect(dir.resolve("tasks.db"))) {
            if (analyzed) {
                try (Statement analyze = connection.createStatement()) {
                    analyze.execute("ANALYZE");
                }
            }
            try (PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + bound.getSql())) {
                new DefaultParameterHandler(mapped, parameters, bound).setParameters(explain);
                List<String> lines = new ArrayList<>();
                try (ResultSet rows = explain.executeQuery()) {
                    while (rows.next()) {
                        lines.add(rows.getString("detail"));
                    }
                }
                return lines;
            }
        }
    }
}
