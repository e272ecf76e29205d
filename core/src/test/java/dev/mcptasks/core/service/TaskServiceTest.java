package dev.mcptasks.core.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskServiceTest {
    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("native", "mcp-tasks", 60_000L, SubmitPolicy.AT_MOST_ONCE),
            new ServerProfile("tools", "ordinary-tools", null, null)));
    private final TaskService service = new TaskService(repository, servers, new SequentialIdGenerator());

    @Test
    void submitPersistsAPendingTaskDueNowWithTheServersDriverAndDefaultTtl() {
        TaskRecord task = service.submit("native", "long_job", "{\"n\":1}");

        assertThat(task.status()).isEqualTo(TaskStatus.PENDING);
        assertThat(task.definition().serverName()).isEqualTo("native");
        assertThat(task.definition().driver()).isEqualTo("mcp-tasks");
        assertThat(task.definition().requestedTtlMs()).isEqualTo(60_000L);
        assertThat(task.definition().argumentsJson()).isEqualTo("{\"n\":1}");
        assertThat(task.control().nextControlAt()).isEqualTo(clock.now());
        assertThat(task.state().remoteTaskId()).isNull();
        assertThat(repository.find(task.id())).contains(task);
    }

    @Test
    void anExplicitTtlWinsOverTheServerDefaultAndNoDefaultMeansTheServersOwn() {
        assertThat(service.submit("native", "t", "{}", 5_000L).definition().requestedTtlMs()).isEqualTo(5_000L);
        assertThat(service.submit("tools", "t", "{}").definition().requestedTtlMs()).isNull();
        assertThat(service.submit("tools", "t", "{}").definition().driver()).isEqualTo("ordinary-tools");
    }

    @Test
    void eachSubmissionGetsANewId() {
        TaskId first = service.submit("native", "t", "{}").id();
        TaskId second = service.submit("native", "t", "{}").id();
        assertThat(first).isNotEqualTo(second);
        assertThat(service.list(TaskQuery.all(10))).extracting(TaskRecord::id).containsExactly(second, first);
    }

    @Test
    void anUnknownServerIsRefusedByNameAndNothingIsStored() {
        assertThatThrownBy(() -> service.submit("nope", "t", "{}"))
                .isInstanceOf(UnknownServerException.class)
                .hasMessageContaining("'nope'");
        assertThat(service.counts().values()).allMatch(count -> count == 0);
    }

    @Test
    void invalidArgumentsAreRefusedWithTheCause() {
        assertThatThrownBy(() -> service.submit("native", "t", "[1,2]"))
                .isInstanceOf(DomainException.class).hasMessageContaining("JSON object");
        assertThatThrownBy(() -> service.submit("native", "t", "{\"x\":NaN}"))
                .isInstanceOf(DomainException.class).hasMessageContaining("arguments");
        assertThatThrownBy(() -> service.submit("native", " ", "{}"))
                .isInstanceOf(DomainException.class).hasMessageContaining("tool name");
        assertThatThrownBy(() -> service.submit("native", "t", "{}", -1L))
                .isInstanceOf(DomainException.class).hasMessageContaining("ttl");
        assertThat(service.list(TaskQuery.all(10))).isEmpty();
    }

    @Test
    void cancellingANeverSentTaskCancelsItLocallyAndARepeatChangesNothing() {
        TaskId id = service.submit("native", "t", "{}").id();

        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        assertThat(service.find(id).orElseThrow().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(service.requestCancel(id)).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);
        assertThat(service.requestCancel(TaskId.of("missing"))).isEqualTo(CancelRequestOutcome.NOT_FOUND);
    }

    @Test
    void aLocalCancelIsAnnouncedToThisProcesssReadersAndARequestForAWorkerIsNot() {
        TaskChanges changes = new TaskChanges(repository);
        List<TaskId> told = new java.util.ArrayList<>();
        changes.subscribe(new TaskChangeListener() {
            @Override
            public void changed(TaskId id) {
                told.add(id);
            }

            @Override
            public void changedSomewhere() {
                told.add(null);
            }
        });
        service.announceChangesTo(changes);
        TaskService operator = service.withAudit(AuditTrail.NONE);
        TaskId pending = service.submit("native", "t", "{}").id();
        TaskId byOperator = service.submit("native", "t", "{}").id();

        assertThat(service.requestCancel(pending)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        assertThat(operator.requestCancel(byOperator)).isEqualTo(CancelRequestOutcome.CANCELLED_LOCALLY);
        assertThat(service.requestCancel(pending)).isEqualTo(CancelRequestOutcome.ALREADY_TERMINAL);

        assertThat(told).containsExactly(pending, byOperator);
    }

    @Test
    void countsCoverEveryStatusAndWorkersAreListed() {
        service.submit("native", "t", "{}");
        TaskId cancelled = service.submit("native", "t", "{}").id();
        service.requestCancel(cancelled);
        repository.heartbeat(new WorkerInfo(WorkerId.of("w1"), "host", 42, clock.now()));
        clock.advance(Duration.ofSeconds(1));

        assertThat(service.counts()).containsEntry(TaskStatus.PENDING, 1L).containsEntry(TaskStatus.CANCELLED, 1L)
                .containsEntry(TaskStatus.WORKING, 0L).hasSize(TaskStatus.values().length);
        assertThat(service.workers()).singleElement()
                .satisfies(worker -> assertThat(worker.id()).isEqualTo(WorkerId.of("w1")));
    }

    @Test
    void theDriverRegistryFindsADriverThroughTheServersProfile() {
        var nativeDriver = new NamedDriver("mcp-tasks");
        var registry = new TaskDriverRegistry(List.of(nativeDriver, new NamedDriver("ordinary-tools")), servers);

        assertThat(registry.driverFor("native")).isSameAs(nativeDriver);
        assertThatThrownBy(() -> registry.driverFor("nope")).isInstanceOf(UnknownServerException.class)
                .hasMessageContaining("'nope'");
        assertThatThrownBy(() -> registry.driverNamed("other")).isInstanceOf(UnknownServerException.class)
                .hasMessageContaining("'other'");
        assertThatThrownBy(() -> new TaskDriverRegistry(List.of(nativeDriver, nativeDriver), servers))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mcp-tasks");
    }

    /** A driver that is only ever looked up, never called. */
    private record NamedDriver(String name) implements dev.mcptasks.ports.driver.TaskDriver {
        @Override
        public java.util.concurrent.CompletableFuture<dev.mcptasks.ports.driver.SubmitResult> submit(
                dev.mcptasks.ports.driver.SubmitCall call) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<dev.mcptasks.domain.RemoteTaskSnapshot> status(
                dev.mcptasks.ports.driver.RemoteTaskRef task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public java.util.concurrent.CompletableFuture<dev.mcptasks.domain.RemoteTaskSnapshot> cancel(
                dev.mcptasks.ports.driver.RemoteTaskRef task) {
            throw new UnsupportedOperationException();
        }
    }
}
