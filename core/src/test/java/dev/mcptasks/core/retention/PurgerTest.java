package dev.mcptasks.core.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A purge pass applies each status's retention, the tasks' ttls and the audit log's, a paced batch at a time. */
class PurgerTest {
    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final InMemoryAuditLog audit = new InMemoryAuditLog(clock);
    private final AtomicInteger pauses = new AtomicInteger();
    private final Purger purger = new Purger(repository.retention(), audit, clock, 2, pauses::incrementAndGet);

    @Test
    void aPassDeletesWhatThePolicyNoLongerKeepsPausingBetweenFullBatches() throws Exception {
        for (int i = 0; i < 5; i++) {
            cancelledTask(null);
        }
        cancelledTask(60_000L);
        audit.append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.SUBMIT, null, null));
        RetentionPolicy policy = new RetentionPolicy(Map.of(TaskStatus.CANCELLED, Duration.ofDays(1)),
                Duration.ofDays(2), 2, Duration.ZERO, Duration.ofMinutes(1));

        clock.advance(Duration.ofMinutes(1));
        assertThat(purger.purge(policy)).as("only the ttl of one has passed").isEqualTo(new PurgeResult(1, 0));
        clock.advance(Duration.ofDays(1));
        assertThat(purger.purge(policy)).isEqualTo(new PurgeResult(5, 0));
        assertThat(pauses.get()).as("after each full batch of two").isEqualTo(2);
        clock.advance(Duration.ofDays(1));
        assertThat(purger.purge(policy)).isEqualTo(new PurgeResult(0, 1));
        assertThat(audit.list(new AuditQuery(null, null, 10))).isEmpty();
    }

    @Test
    void anOperatorPurgeCountsAndDeletesOnlyTheChosenStatusesOlderThanTheAge() throws Exception {
        for (int i = 0; i < 3; i++) {
            cancelledTask(null);
        }
        clock.advance(Duration.ofHours(2));
        assertThat(purger.count(Set.of(TaskStatus.CANCELLED), Duration.ofHours(3))).isZero();
        assertThat(purger.count(Set.of(TaskStatus.COMPLETED), Duration.ofHours(1))).isZero();
        assertThat(purger.count(TaskStatus.TERMINAL, Duration.ofHours(1))).isEqualTo(3);
        assertThat(purger.purge(Set.of(TaskStatus.COMPLETED), Duration.ofHours(1))).isZero();
        assertThat(purger.purge(Set.of(TaskStatus.CANCELLED), Duration.ofHours(1))).isEqualTo(3);
        assertThat(purger.count(TaskStatus.TERMINAL, Duration.ZERO)).isZero();
    }

    /** A task cancelled before it was sent: finished now, with no delivery (no notification rules apply). */
    private void cancelledTask(Long ttlMs) {
        NewTask task = new NewTask(ids.newTaskId(), "native", "job", "{}", "mcp-tasks", ttlMs);
        repository.create(task);
        repository.requestCancel(task.id());
        repository.claimNotifications(new dev.mcptasks.ports.repository.NotificationClaimRequest(
                dev.mcptasks.domain.WorkerId.of("w"), 100, Duration.ofMinutes(1))).forEach(claim -> {
                    repository.markDispatched(claim);
                    repository.finishNotification(claim);
                });
    }
}
