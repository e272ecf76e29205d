package dev.mcptasks.core.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gateway's view: a principal sees, cancels and answers only its own tasks, and a foreign id looks unknown. */
class TaskServicePrincipalTest {
    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final TaskService service = new TaskService(repository,
            ServerDirectory.of(List.of(new ServerProfile("native", "mcp-tasks", 60_000L, SubmitPolicy.AT_MOST_ONCE))),
            new SequentialIdGenerator());

    @Test
    void aTaskSubmittedForAPrincipalIsVisibleToThatPrincipalOnly() {
        TaskRecord task = service.submitFor("alice", "native", "long_job", "{}", null);

        assertThat(task.definition().principal()).isEqualTo("alice");
        assertThat(service.findFor("alice", task.id())).contains(task);
        assertThat(service.findFor("bob", task.id())).isEmpty();
        assertThat(service.findFor("bob", TaskId.of("t-missing"))).isEmpty();
    }

    @Test
    void anotherPrincipalCannotCancelOrAnswerATaskAndNothingChanges() {
        TaskRecord task = service.submitFor("alice", "native", "long_job", "{}", null);

        assertThat(service.requestCancelFor("bob", task.id())).isEqualTo(CancelRequestOutcome.NOT_FOUND);
        assertThat(service.answerFor("bob", task.id(), "k", "{}")).isEqualTo(AnswerOutcome.NOT_FOUND);
        assertThat(repository.find(task.id())).contains(task);

        assertThat(service.requestCancelFor("alice", task.id())).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
    }

    @Test
    void aPrincipalListsOnlyItsOwnTasksWhateverTheQuerySays() {
        TaskRecord alice = service.submitFor("alice", "native", "t", "{}", null);
        service.submitFor("bob", "native", "t", "{}", null);
        service.submit("native", "t", "{}");

        assertThat(service.listFor("alice", new TaskQuery(null, null, 10, null, "bob")))
                .extracting(TaskRecord::id).containsExactly(alice.id());
        assertThat(service.list(TaskQuery.all(10))).hasSize(3);
    }

    @Test
    void tasksOfNoPrincipalAreNobodysThroughTheGateway() {
        TaskRecord cli = service.submit("native", "t", "{}");

        assertThat(service.findFor("alice", cli.id())).isEmpty();
        assertThat(service.listFor("alice", TaskQuery.all(10))).isEmpty();
    }
}
