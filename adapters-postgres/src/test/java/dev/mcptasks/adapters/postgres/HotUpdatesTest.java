package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationClaimRequest;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The writes that change no indexed column (claims, renewals, the submit-attempt record, progress, delivery claims
 * and dispatch marks) are HOT updates: the new row version stays on its page and no index is written. That needs room on
 * the page (the table's fillfactor) and no index key or predicate over what they change (the outbox index is keyed
 * on the version columns, not the delivery status). Measured with the server's own counters.
 */
class HotUpdatesTest {
    private static final WorkerId WORKER = WorkerId.of("worker-a");
    private static final Duration LEASE = Duration.ofMinutes(2);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    @Test
    void claimsRenewalsAttemptsProgressAndDeliveryMarksAreHotUpdatesOnFullPages() throws Exception {
        PostgresSettings settings = PostgresTestDatabase.freshSchema();
        CloseableTaskRepository repository = PostgresTaskRepositories.open(settings, clock,
                new SequentialIdGenerator(), FencedWriteHook.NONE);
        TaskSeeder seeder = new TaskSeeder(settings);
        // pages filled as inserts fill them (several pages each), then the first row of each kind is written
        seeder.due("submit-", 300, "pending", false, clock.now());
        seeder.notificationDue("notify-", 300, clock.now());
        try {
            Claim claim = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, WORKER, 1, LEASE,
                    Duration.ofSeconds(30), Set.of())).get(0).claim();
            assertThat(repository.renew(claim, LEASE.multipliedBy(2))).isTrue();
            assertThat(repository.recordSubmitAttempt(claim)).isTrue();
            assertThat(repository.recordProgress(claim, "step 1 of 4")).isTrue();
            List<NotificationClaim> deliveries = repository.claimNotifications(new NotificationClaimRequest(WORKER,
                    1, LEASE));
            assertThat(deliveries).hasSize(1);
            assertThat(repository.markDispatched(deliveries.get(0))).isTrue();
        } finally {
            repository.close(); // its backends exit and report their counters
        }

        long[] updates = updatesOnceReported(settings, 6);

        assertThat(updates[1]).as("HOT updates among the %d updates of the tasks table", updates[0]).isEqualTo(6);
    }

    /** n_tup_upd and n_tup_hot_upd of this schema's tasks table, once {@code expected} updates are counted. */
    private static long[] updatesOnceReported(PostgresSettings settings, long expected) throws SQLException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        try (Connection connection = PostgresTestDatabase.connect(settings);
                PreparedStatement read = connection.prepareStatement("SELECT n_tup_upd, n_tup_hot_upd"
                        + " FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'tasks'");
                Statement clear = connection.createStatement()) {
            while (true) {
                clear.execute("SELECT pg_stat_clear_snapshot()");
                try (ResultSet rows = read.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    long[] counts = {rows.getLong(1), rows.getLong(2)};
                    if (counts[0] >= expected) {
                        assertThat(counts[0]).as("updates of the tasks table").isEqualTo(expected);
                        return counts;
                    }
                }
                assertThat(System.nanoTime()).as("the server reports %d updates within %s", expected, DEADLINE)
                        .isLessThan(deadline);
                Thread.onSpinWait();
            }
        }
    }
}
