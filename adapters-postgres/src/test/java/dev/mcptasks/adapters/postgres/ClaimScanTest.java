package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.binding.MapperMethod;
import org.apache.ibatis.mapping.BoundSql;
import org.apache.ibatis.mapping.MappedStatement;
import org.apache.ibatis.scripting.defaults.DefaultParameterHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Claim scans stay on their partial indexes however many finished rows the table holds: the plans of the real
 * statements (as MyBatis binds them) use the phase's index, and a scan over 200,000 terminal rows costs about what it
 * costs over none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClaimScanTest {
    private static final int TERMINAL_ROWS = 200_000;
    private static final int DUE_ROWS = 400;
    private static final int SCANS = 40;
    private static final int SCAN_LIMIT = 8;
    private static final Duration LEASE = Duration.ofSeconds(60);
    private static final WorkerId WORKER = WorkerId.of("scanner");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-06-01T12:00:00Z"));
    private PostgresSettings loaded;
    private PostgresSettings empty;
    private CloseableTaskRepository loadedRepository;
    private CloseableTaskRepository emptyRepository;

    @BeforeAll
    void seed() throws Exception {
        loaded = PostgresTestDatabase.freshSchema();
        empty = PostgresTestDatabase.freshSchema();
        loadedRepository = open(loaded);
        emptyRepository = open(empty);
        Instant past = clock.now().minus(Duration.ofDays(30));
        TaskSeeder loadedSeeder = new TaskSeeder(loaded);
        loadedSeeder.terminal("done-", TERMINAL_ROWS, past);
        // the loaded table's statistics are taken while nothing is due (as autovacuum takes them on a quiet
        // outbox): the planner then expects no due row of any kind, and must still choose the partial indexes
        loadedSeeder.analyze();
        for (TaskSeeder seeder : List.of(loadedSeeder, new TaskSeeder(empty))) {
            seeder.due("submit-", 50, "pending", false, clock.now());
            seeder.due("poll-", DUE_ROWS, "working", false, clock.now());
            seeder.due("cancel-", 50, "working", true, clock.now());
            seeder.notificationDue("notify-", 50, clock.now());
        }
        new TaskSeeder(empty).analyze();
    }

    @AfterAll
    void close() {
        loadedRepository.close();
        emptyRepository.close();
    }

    private CloseableTaskRepository open(PostgresSettings settings) {
        return PostgresTaskRepositories.open(settings, clock, new SequentialIdGenerator(), FencedWriteHook.NONE);
    }

    @ParameterizedTest
    @CsvSource({"submit, tasks_submit_due", "poll, tasks_poll_due", "cancel, tasks_cancel_due"})
    void controlClaimScansUseTheirPartialIndex(String phase, String index) throws Exception {
        Map<String, Object> params = new MapperMethod.ParamMap<>();
        params.put("phase", phase);
        params.put("worker", WORKER.value());
        params.put("now", clock.now());
        params.put("expiresAt", clock.now().plus(LEASE));
        params.put("staleAfterMillis", 30_000L);
        params.put("excluded", new String[] {"poll-00000001"});
        params.put("atShare", new String[] {});
        params.put("tokens", new String[] {"t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"});
        params.put("limit", SCAN_LIMIT);

        String plan = explain("claimControl", params);

        assertThat(plan).contains(index).doesNotContain("Seq Scan on tasks");
    }

    @Test
    void notificationClaimScanUsesItsPartialIndex() throws Exception {
        Map<String, Object> params = new MapperMethod.ParamMap<>();
        params.put("worker", WORKER.value());
        params.put("now", clock.now());
        params.put("expiresAt", clock.now().plus(LEASE));
        params.put("tokens", new String[] {"t1", "t2"});
        params.put("limit", 2);

        String plan = explain("claimNotifications", params);

        assertThat(plan).contains("tasks_notify_due").doesNotContain("Seq Scan on tasks");
    }

    @Test
    void claimTimeDoesNotGrowWithTerminalRows() {
        // warm both pools and caches, then alternate scans so machine noise hits both series alike
        scan(loadedRepository);
        scan(emptyRepository);
        long loadedNanos = 0;
        long emptyNanos = 0;
        for (int i = 0; i < SCANS; i++) {
            loadedNanos += scan(loadedRepository);
            emptyNanos += scan(emptyRepository);
        }
        double loadedMs = loadedNanos / 1e6 / SCANS;
        double emptyMs = emptyNanos / 1e6 / SCANS;
        System.out.printf("poll claim scan (limit %d): %.2f ms with %,d terminal rows, %.2f ms with none%n",
                SCAN_LIMIT, loadedMs, TERMINAL_ROWS, emptyMs);

        // A scan that visited the terminal rows would be one to two orders of magnitude slower; allow noise.
        assertThat(loadedMs).isLessThan(Math.max(emptyMs, 1.0) * 5);
    }

    private long scan(CloseableTaskRepository repository) {
        long start = System.nanoTime();
        int claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.POLL, WORKER, SCAN_LIMIT, LEASE,
                Duration.ofSeconds(30), Set.of())).size();
        long elapsed = System.nanoTime() - start;
        assertThat(claimed).isEqualTo(SCAN_LIMIT);
        return elapsed;
    }

    /** EXPLAIN of a mapper statement exactly as MyBatis renders and binds it. */
    private String explain(String statement, Map<String, Object> params) throws Exception {
        MappedStatement mapped = PostgresStore.mybatis().getMappedStatement(TaskMapper.class.getName() + "."
                + statement);
        BoundSql bound = mapped.getBoundSql(params);
        List<String> lines = new ArrayList<>();
        try (Connection connection = PostgresTestDatabase.connect(loaded);
                PreparedStatement explain = connection.prepareStatement("EXPLAIN " + bound.getSql())) {
            new DefaultParameterHandler(mapped, params, bound).setParameters(explain);
            try (ResultSet rows = explain.executeQuery()) {
                while (rows.next()) {
                    lines.add(rows.getString(1));
                }
            }
        }
        String plan = String.join("\n", lines);
        System.out.println("EXPLAIN " + statement + " " + params.getOrDefault("phase", "") + ":\n" + plan);
        return plan;
    }
}
