package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.sqlite.SqlParams.ClaimScan;
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
import org.apache.ibatis.scripting.defaults.RawSqlSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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
    @CsvSource({"selectSubmitCandidates, tasks_submit_due", "selectPollCandidates, tasks_poll_due",
            "selectCancelCandidates, tasks_cancel_due"})
    void eachControlScanSearchesItsPhasesPartialIndex(String statement, String index) throws Exception {
        assertUsesIndex(statement, index, false);
        assertUsesIndex(statement, index, true);
    }

    /**
     * A backlog of 10,000 due poll rows leaves the submit scan's plan as it was, and the index that plan reads holds
     * none of them (with one index shared by all phases, every submit scan stepped over the whole backlog, which sorts
     * before later submits in (next_control_at, id) order).
     */
    @Test
    void aBacklogOfDuePollRowsIsNotInTheSubmitScansIndex() throws Exception {
        Path file = dir.resolve("tasks.db");
        long now = clock.now().toEpochMilli();
        SeedRows.pending(file, 20, now);
        List<String> before = plan("selectSubmitCandidates", true);

        SeedRows.duePolls(file, 10_000, now - 1);
        List<String> after = plan("selectSubmitCandidates", true);

        System.out.println("submit scan beside 10,000 due polls: " + after);
        assertThat(after).as("submit plan beside a poll backlog").isEqualTo(before);
        String index = indexOf(after);
        assertThat(rowsInPartialIndex(index)).as("entries of %s, the submit scan's index", index).isEqualTo(20);
        assertThat(rowsInPartialIndex("tasks_poll_due")).isEqualTo(10_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"claimSubmit", "claimPoll", "claimCancel", "claimNotify", "claimNotifyDispatched"})
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

    /**
     * The statements of a task's hot path are static SQL: MyBatis builds them once at start-up and the writer's
     * REUSE executor finds them prepared (dynamic SQL is rebuilt per call and differs with its list sizes).
     */
    @ParameterizedTest
    @ValueSource(strings = {"insertTask", "selectTask", "selectSubmitCandidates", "selectPollCandidates",
            "selectCancelCandidates", "selectNotifyCandidates", "claimSubmit", "claimPoll", "claimCancel",
            "claimNotify", "claimNotifyDispatched", "renew", "recordSubmitAttempt", "applySubmitted", "applyOutcome",
            "releaseAfterFailure",
            "markDispatched", "finishNotification", "retryNotification"})
    void hotPathStatementsAreStatic(String statement) {
        MappedStatement mapped = database.configuration()
                .getMappedStatement("dev.mcptasks.adapters.sqlite.TaskMapper." + statement);
        assertThat(mapped.getSqlSource()).as("SQL source of %s", statement).isInstanceOf(RawSqlSource.class);
    }

    private static String indexOf(List<String> plan) {
        String tasksLine = plan.stream().filter(line -> line.matches("(SCAN|SEARCH) tasks\\b.*")).findFirst()
                .orElseThrow(() -> new AssertionError("no access to tasks in plan " + plan));
        java.util.regex.Matcher index = java.util.regex.Pattern.compile("INDEX (\\w+)").matcher(tasksLine);
        assertThat(index.find()).as("an index in %s", tasksLine).isTrue();
        return index.group(1);
    }

    /** The number of rows a partial index holds: the rows its own WHERE clause selects. */
    private long rowsInPartialIndex(String index) throws Exception {
        try (Connection connection = SeedRows.connect(dir.resolve("tasks.db"));
                PreparedStatement definition = connection.prepareStatement(
                        "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?")) {
            definition.setString(1, index);
            String where;
            try (ResultSet rows = definition.executeQuery()) {
                assertThat(rows.next()).as("index %s exists", index).isTrue();
                String sql = rows.getString(1);
                int at = sql.toUpperCase(java.util.Locale.ROOT).lastIndexOf(" WHERE ");
                assertThat(at).as("%s is a partial index", index).isPositive();
                where = sql.substring(at + " WHERE ".length());
            }
            try (Statement count = connection.createStatement();
                    ResultSet rows = count.executeQuery("SELECT COUNT(*) FROM tasks WHERE " + where)) {
                rows.next();
                return rows.getLong(1);
            }
        }
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

    /** EXPLAIN QUERY PLAN of the mapped statement, bound as the repository binds it. */
    private List<String> plan(String statement, boolean analyzed) throws Exception {
        MappedStatement mapped = database.configuration()
                .getMappedStatement("dev.mcptasks.adapters.sqlite.TaskMapper." + statement);
        MapperMethod.ParamMap<Object> parameters = new MapperMethod.ParamMap<>();
        long now = clock.now().toEpochMilli();
        parameters.put("s", new ClaimScan("w1", now, now + 60_000, now - 30_000, 50));
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
