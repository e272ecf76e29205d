package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link AuditLog} on a task store: extend it, implement the fixture's methods and {@link #auditOf}.
 * Records come back as appended, stamped with the store's clock, newest first, filtered by task and principal; the
 * log's retention deletes only records older than the cutoff, a bounded batch at a time. A record cannot be changed,
 * even below the port: the database refuses an update, and only the log's retention deletes.
 */
public abstract class AuditLogContract extends ContractFixture {
    private static final TaskId T1 = TaskId.of("task-1");
    private static final TaskId T2 = TaskId.of("task-2");

    /** The audit log on the database of {@code repository}. */
    protected abstract AuditLog auditOf(CloseableTaskRepository repository);

    /**
     * Sets the detail of the record {@code sequence} below the port, as an operator's SQL shell would ({@code UPDATE}
     * on the store's table); the store must refuse it with an error whose message says the log is append-only.
     */
    protected abstract void updateRecord(long sequence, String detail) throws Exception;

    private AuditLog audit() {
        return auditOf(repo);
    }

    @Test
    void recordsComeBackNewestFirstStampedWithTheStoreClock() {
        audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.SUBMIT, T1, null));
        advance(Duration.ofSeconds(1));
        audit().append(new AuditEntry("bob", AuditChannel.CLI, AuditAction.CANCEL_REQUEST, T1, "requested"));
        advance(Duration.ofSeconds(1));
        audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.ANSWER_INPUT, T2, "accepted"));
        audit().append(new AuditEntry("ops", AuditChannel.ADMIN, AuditAction.PURGE, null, "12 tasks"));

        var all = audit().list(new AuditQuery(null, null, 100));
        assertThat(all).extracting(AuditRecord::action).containsExactly(AuditAction.PURGE,
                AuditAction.ANSWER_INPUT, AuditAction.CANCEL_REQUEST, AuditAction.SUBMIT);
        AuditRecord cancel = all.get(2);
        assertThat(cancel.principal()).isEqualTo("bob");
        assertThat(cancel.channel()).isEqualTo(AuditChannel.CLI);
        assertThat(cancel.taskId()).isEqualTo(T1);
        assertThat(cancel.detail()).isEqualTo("requested");
        assertThat(cancel.at()).isEqualTo(now().minusSeconds(1));
        assertThat(all.get(0).taskId()).isNull();
        assertThat(all.get(0).sequence()).isGreaterThan(all.get(1).sequence());

        assertThat(audit().list(new AuditQuery(T1, null, 100))).extracting(AuditRecord::principal)
                .containsExactly("bob", "alice");
        assertThat(audit().list(new AuditQuery(null, "alice", 100))).extracting(AuditRecord::taskId)
                .containsExactly(T2, T1);
        assertThat(audit().list(new AuditQuery(T1, "alice", 100))).hasSize(1);
        assertThat(audit().list(new AuditQuery(null, null, 2))).extracting(AuditRecord::action)
                .containsExactly(AuditAction.PURGE, AuditAction.ANSWER_INPUT);
    }

    @Test
    void appendsInOneStoreTransactionAreKeptInOrderEachWithItsOwnTime() {
        repo.inOneTransaction(() -> {
            audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.SUBMIT, T1, "first"));
            advance(Duration.ofSeconds(1));
            audit().append(new AuditEntry("bob", AuditChannel.CLI, AuditAction.CANCEL_REQUEST, T2, "second"));
            return null;
        });

        var all = audit().list(new AuditQuery(null, null, 10));
        assertThat(all).extracting(AuditRecord::detail).containsExactly("second", "first");
        assertThat(all).extracting(AuditRecord::at).containsExactly(now(), now().minusSeconds(1));
        assertThat(all.get(0).sequence()).isGreaterThan(all.get(1).sequence());
        assertThat(all.get(0).taskId()).isEqualTo(T2);
        assertThat(all.get(1).principal()).isEqualTo("alice");
    }

    @Test
    void theLogsRetentionDeletesOnlyOlderRecordsInBoundedBatches() {
        for (int i = 0; i < 5; i++) {
            audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.SUBMIT, T1, null));
        }
        advance(Duration.ofHours(1));
        audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.CANCEL_REQUEST, T1, null));

        assertThat(audit().purgeBefore(now().minus(Duration.ofHours(2)), 10)).isZero();
        assertThat(audit().purgeBefore(now(), 3)).isEqualTo(3);
        assertThat(audit().purgeBefore(now(), 3)).isEqualTo(2);
        assertThat(audit().purgeBefore(now(), 3)).isZero();
        assertThat(audit().list(new AuditQuery(null, null, 100))).extracting(AuditRecord::action)
                .containsExactly(AuditAction.CANCEL_REQUEST);
    }

    @Test
    void anUpdateOfARecordIsRefusedWhileItsRetentionStillDeletesIt() {
        audit().append(new AuditEntry("alice", AuditChannel.GATEWAY, AuditAction.CANCEL_REQUEST, T1, "as recorded"));
        AuditRecord recorded = audit().list(new AuditQuery(null, null, 10)).get(0);

        assertThatThrownBy(() -> updateRecord(recorded.sequence(), "rewritten")).hasMessageContaining("append-only");

        assertThat(audit().list(new AuditQuery(null, null, 10))).containsExactly(recorded);
        advance(Duration.ofSeconds(1));
        assertThat(audit().purgeBefore(now(), 10)).isEqualTo(1);
        assertThat(audit().list(new AuditQuery(null, null, 10))).isEmpty();
    }
}
