package dev.mcptasks.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every action through the task service is in the audit log, under the principal it was made for or the operator. */
class TaskServiceAuditTest {
    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final InMemoryAuditLog log = new InMemoryAuditLog(clock);
    private final ServerDirectory servers = ServerDirectory.of(
            List.of(new ServerProfile("native", "mcp-tasks", 60_000L, SubmitPolicy.AT_MOST_ONCE)));

    @Test
    void aGatewayPrincipalsSubmitCancelAndAnswerAreRecordedUnderThatPrincipal() {
        TaskService gateway = new TaskService(repository, servers, new SequentialIdGenerator(),
                new AuditTrail(log, AuditChannel.GATEWAY, "gateway"));
        TaskId task = gateway.submitFor("alice", "native", "long_job", "{}", null).id();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> gateway.answerFor("alice", task, "k", "{}"))
                .isInstanceOf(AnswerRejectedException.class);
        gateway.requestCancelFor("alice", task);
        gateway.requestCancelFor("mallory", task);

        List<AuditRecord> records = log.list(new AuditQuery(task, null, 100));
        assertThat(records).extracting(AuditRecord::principal, AuditRecord::action, AuditRecord::detail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("mallory", AuditAction.CANCEL_REQUEST, "not_found"),
                        org.assertj.core.groups.Tuple.tuple("alice", AuditAction.CANCEL_REQUEST,
                                "cancelled_locally"),
                        org.assertj.core.groups.Tuple.tuple("alice", AuditAction.ANSWER_INPUT, "k: rejected"),
                        org.assertj.core.groups.Tuple.tuple("alice", AuditAction.SUBMIT, "native/long_job"));
        assertThat(records).extracting(AuditRecord::channel).containsOnly(AuditChannel.GATEWAY);
        assertThat(records).extracting(AuditRecord::at).containsOnly(clock.now());
    }

    @Test
    void anOperatorsActionsAreRecordedUnderTheOperatorOfTheChannel() {
        TaskService cli = new TaskService(repository, servers, new SequentialIdGenerator(),
                new AuditTrail(log, AuditChannel.CLI, "ops-user"));
        TaskId task = cli.submit("native", "long_job", "{}").id();
        cli.requestCancel(task);

        assertThat(log.list(new AuditQuery(null, "ops-user", 100)))
                .extracting(AuditRecord::action, AuditRecord::channel, AuditRecord::taskId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(AuditAction.CANCEL_REQUEST, AuditChannel.CLI, task),
                        org.assertj.core.groups.Tuple.tuple(AuditAction.SUBMIT, AuditChannel.CLI, task));
    }

    /** The submit's record is written in the create's transaction: a record that cannot be written leaves no task. */
    @Test
    void aSubmitWhoseRecordCannotBeWrittenLeavesNoTask() {
        AuditLog failing = new AuditLog() {
            @Override
            public void append(AuditEntry entry) {
                throw new IllegalStateException("audit table is gone");
            }

            @Override
            public List<AuditRecord> list(AuditQuery query) {
                return List.of();
            }

            @Override
            public int purgeBefore(java.time.Instant cutoff, int limit) {
                return 0;
            }
        };
        TaskService gateway = new TaskService(repository, servers, new SequentialIdGenerator(),
                new AuditTrail(failing, AuditChannel.GATEWAY, "gateway"));

        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> gateway.submitFor("alice", "native", "long_job", "{}", null))
                .hasMessageContaining("audit table is gone");

        assertThat(repository.list(TaskQuery.all(10))).isEmpty();
    }
}
