package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskFigures;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.repository.WorkerRecord;
import dev.mcptasks.ports.trace.TraceContext;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Repository contract topic: reads, the workers table, and bad input that must be refused before anything is written. */
public interface ReadContract extends RepositoryFixture {

    private static List<TaskId> idsOf(List<TaskRecord> records) {
        return records.stream().map(TaskRecord::id).toList();
    }

    @Test
    default void findReturnsTheWholeRowOrNothing() {
        TaskId id = create();

        assertThat(repo().find(id)).contains(record(id));
        assertThat(repo().find(TaskId.of("task-missing"))).isEmpty();
    }

    @Test
    default void findAllReturnsTheRowsThatExistEachOnce() {
        TaskId first = create();
        TaskId second = working(SERVER, null);

        assertThat(repo().findAll(List.of(second, TaskId.of("task-missing"), first, second)))
                .containsExactlyInAnyOrder(record(first), record(second));
        assertThat(repo().findAll(List.of())).isEmpty();
        assertThat(repo().findAll(List.of(TaskId.of("task-missing")))).isEmpty();
        // one id (asked twice) may take a store's path of a single row
        assertThat(repo().findAll(List.of(first, first))).containsExactly(record(first));
    }

    @Test
    default void listPagesNewestFirstWithStatusAndServerFilters() {
        TaskId a1 = create(SERVER);
        TaskId b1 = create(OTHER_SERVER);
        TaskId a2 = working(SERVER, null);
        TaskId a3 = create(SERVER);
        TaskId b2 = create(OTHER_SERVER);

        assertThat(idsOf(repo().list(TaskQuery.all(10)))).containsExactly(b2, a3, a2, b1, a1);
        List<TaskRecord> page = repo().list(TaskQuery.all(2));
        assertThat(idsOf(page)).containsExactly(b2, a3);
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 2, page.get(1).id())))).containsExactly(a2, b1);
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 2, b1)))).containsExactly(a1);
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 2, a1)))).isEmpty();
        assertThat(idsOf(repo().list(new TaskQuery(null, SERVER, 10, null)))).containsExactly(a3, a2, a1);
        assertThat(idsOf(repo().list(new TaskQuery(TaskStatus.PENDING, SERVER, 1, a3)))).containsExactly(a1);
        assertThat(idsOf(repo().list(new TaskQuery(TaskStatus.WORKING, null, 10, null)))).containsExactly(a2);
        assertThat(idsOf(repo().list(new TaskQuery(TaskStatus.COMPLETED, null, 10, null)))).isEmpty();
        assertThat(repo().list(TaskQuery.all(10)).get(2)).isEqualTo(record(a2));
    }

    @Test
    default void aTaskKeepsThePrincipalThatSubmittedItAndListsFilterOnIt() {
        TaskId anonymous = create();
        TaskId alice1 = createFor("alice");
        TaskId bob = createFor("bob");
        TaskId alice2 = createFor("alice");

        assertThat(record(alice1).definition().principal()).isEqualTo("alice");
        assertThat(record(anonymous).definition().principal()).isNull();
        assertThat(repo().list(TaskQuery.all(10)).get(0)).isEqualTo(record(alice2));
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 10, null, "alice")))).containsExactly(alice2, alice1);
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 1, alice2, "alice")))).containsExactly(alice1);
        assertThat(idsOf(repo().list(new TaskQuery(null, null, 10, null, "bob")))).containsExactly(bob);
        assertThat(idsOf(repo().list(new TaskQuery(TaskStatus.WORKING, null, 10, null, "alice")))).isEmpty();
        assertThat(repo().list(new TaskQuery(null, null, 10, null, "carol"))).isEmpty();
        assertThat(idsOf(repo().list(TaskQuery.all(10)))).containsExactly(alice2, bob, alice1, anonymous);
    }

    @Test
    default void aTaskKeepsTheTraceContextItWasSubmittedWithAndEveryClaimReadsIt() {
        TraceContext trace = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "vendor=opaque");
        TaskId traced = ids().newTaskId();
        TraceContext created = repo().create(new NewTask(traced, SERVER, TOOL, ARGUMENTS, DRIVER, null, "alice",
                trace)).definition().trace();
        TaskId untraced = create();

        assertThat(created).isEqualTo(trace);
        assertThat(record(traced).definition().trace()).isEqualTo(trace);
        assertThat(record(untraced).definition().trace()).isNull();
        // a worker that takes the task up (or over) continues the trace from the row, not from any memory
        assertThat(claim(ClaimPhase.SUBMIT, WorkerId.of("w"), 10))
                .extracting(claimed -> claimed.task().id(), claimed -> claimed.task().definition().trace())
                .containsExactlyInAnyOrder(tuple(traced, trace), tuple(untraced, null));
        assertThat(repo().list(TaskQuery.all(10)).get(1).definition().trace()).isEqualTo(trace);
    }

    @Test
    default void anOversizedPrincipalIsRefusedBeforeAnythingIsWritten() {
        assertThatThrownBy(() -> repo().create(new NewTask(ids().newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null,
                "p".repeat(NewTask.MAX_NAME_LENGTH + 1))))
                .isInstanceOf(DomainException.class).hasMessageContaining("principal");
        assertThat(repo().list(TaskQuery.all(10))).isEmpty();
    }

    @Test
    default void countByStatusReportsEveryStatusIncludingZeros() {
        Map<TaskStatus, Long> empty = repo().countByStatus();
        assertThat(empty).hasSize(TaskStatus.values().length).allSatisfy((status, count) -> assertThat(count).isZero());

        create();
        create();
        TaskId done = working();
        Claim poll = claimRow(ClaimPhase.POLL, A, done);
        assertThat(repo().applyOutcome(poll, outcome(done, TaskStatus.COMPLETED, null))).isTrue();
        working();

        assertThat(repo().countByStatus()).containsExactlyInAnyOrderEntriesOf(Map.of(
                TaskStatus.PENDING, 2L, TaskStatus.WORKING, 1L, TaskStatus.INPUT_REQUIRED, 0L,
                TaskStatus.COMPLETED, 1L, TaskStatus.FAILED, 0L, TaskStatus.CANCELLED, 0L));
    }

    @Test
    default void figuresGroupTasksByStatusAndServerAndGiveTheEarliestDueTimeOfEachPhase() {
        assertThat(repo().figures()).isEqualTo(new TaskFigures(List.of(), Map.of(), Map.of()));

        Instant start = now();
        create();
        advance(Duration.ofSeconds(5));
        create(OTHER_SERVER);
        advance(Duration.ofSeconds(5));
        working();
        completedWithEvent();
        TaskId cancelling = working();
        assertThat(repo().requestCancel(cancelling)).isEqualTo(CancelRequestOutcome.REQUESTED);

        TaskFigures figures = repo().figures();
        assertThat(figures.counts()).containsExactlyInAnyOrder(
                new TaskFigures.Count(TaskStatus.PENDING, SERVER, 1),
                new TaskFigures.Count(TaskStatus.PENDING, OTHER_SERVER, 1),
                new TaskFigures.Count(TaskStatus.WORKING, SERVER, 2),
                new TaskFigures.Count(TaskStatus.COMPLETED, SERVER, 1));
        assertThat(figures.earliestDue()).containsExactlyInAnyOrderEntriesOf(Map.of(
                ClaimPhase.SUBMIT, start.truncatedTo(ChronoUnit.MILLIS),
                ClaimPhase.POLL, now().truncatedTo(ChronoUnit.MILLIS),
                ClaimPhase.CANCEL, now().truncatedTo(ChronoUnit.MILLIS)));
        assertThat(figures.outbox()).containsExactlyInAnyOrderEntriesOf(Map.of(NotificationStatus.PENDING, 1L));
    }

    @Test
    default void heartbeatsRegisterAndRefreshWorkersListedOldestFirst() {
        Instant startedA = now().minusSeconds(100);
        Instant startedB = now().minusSeconds(200);
        repo().heartbeat(new WorkerInfo(A, "host-a", 11, startedA));
        repo().heartbeat(new WorkerInfo(B, "host-b", 22, startedB));
        ageHeartbeats(Duration.ofSeconds(7));
        repo().heartbeat(new WorkerInfo(A, "host-a", 11, startedA));

        List<WorkerRecord> workers = repo().workers();
        assertThat(workers).extracting(WorkerRecord::id, WorkerRecord::host, WorkerRecord::pid,
                WorkerRecord::startedAt).containsExactly(tuple(B, "host-b", 22L, startedB),
                        tuple(A, "host-a", 11L, startedA));
        // stamped by the store's clock: A's refresh is at least the 7 s the store saw pass after B's heartbeat
        assertThat(workers.get(1).lastSeenAt()).isAfterOrEqualTo(workers.get(0).lastSeenAt().plusSeconds(7));
        repo().removeWorker(B);
        assertThat(repo().workers()).extracting(WorkerRecord::id).containsExactly(A);
        repo().removeWorker(B);
        assertThat(repo().workers()).hasSize(1);
    }

    @Test
    default void invalidArgumentsAreRefusedNamingTheCauseAndNothingIsWritten() {
        assertThatThrownBy(() -> repo().create(new NewTask(ids().newTaskId(), SERVER, TOOL, "{\"n\": NaN}", DRIVER,
                null))).isInstanceOf(DomainException.class).hasMessageContaining("arguments");
        assertThatThrownBy(() -> repo().create(new NewTask(ids().newTaskId(), SERVER, TOOL, "[1, 2]", DRIVER, null)))
                .isInstanceOf(DomainException.class).hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> repo().create(new NewTask(ids().newTaskId(), SERVER, TOOL, "{}", DRIVER, -5L)))
                .isInstanceOf(DomainException.class).hasMessageContaining("ttl");

        assertThat(repo().list(TaskQuery.all(10))).isEmpty();
        assertThat(repo().countByStatus().values()).containsOnly(0L);
    }

    @Test
    default void oversizedIdsAndNamesAreRefusedNamingTheCauseAndNothingIsWritten() {
        String longId = "t".repeat(129);
        assertThatThrownBy(() -> repo().create(new NewTask(TaskId.of(longId), SERVER, TOOL, "{}", DRIVER, null)))
                .isInstanceOf(DomainException.class).hasMessageContaining("task id").hasMessageContaining("128");
        assertThatThrownBy(() -> repo().heartbeat(new WorkerInfo(WorkerId.of(longId), "h", 1, now())))
                .isInstanceOf(DomainException.class).hasMessageContaining("worker id");
        String longName = "s".repeat(NewTask.MAX_NAME_LENGTH + 1);
        assertThatThrownBy(() -> repo().create(new NewTask(ids().newTaskId(), longName, TOOL, "{}", DRIVER, null)))
                .isInstanceOf(DomainException.class).hasMessageContaining("server name");

        assertThat(repo().list(TaskQuery.all(10))).isEmpty();
        assertThat(repo().workers()).isEmpty();
    }

    @Test
    default void idsAndNamesAtTheirMaximumLengthAreStoredWhole() {
        TaskId longId = TaskId.of("t".repeat(128));
        String longName = "s".repeat(NewTask.MAX_NAME_LENGTH);
        WorkerId longWorker = WorkerId.of("w".repeat(128));
        String bigArguments = "{\"blob\":\"" + "x".repeat(100_000) + "\"}";
        repo().create(new NewTask(longId, longName, longName, bigArguments, longName, Long.MAX_VALUE));
        repo().heartbeat(new WorkerInfo(longWorker, longName, Long.MAX_VALUE, now()));

        Claim claim = repo().claimControl(request(ClaimPhase.SUBMIT, longWorker, 1, Set.of())).get(0).claim();
        assertThat(repo().applySubmitted(claim, submitted("r".repeat(1000), longWorker))).isTrue();
        TaskRecord stored = record(longId);
        assertThat(stored.definition()).isEqualTo(new TaskRecord.Definition(longName, longName, bigArguments,
                longName, Long.MAX_VALUE, stored.definition().createdAt()));
        assertThat(stored.state().remoteTaskId()).hasSize(1000);
        assertThat(stored.state().endpointOwner()).isEqualTo(longWorker);
        assertThat(repo().workers()).extracting(WorkerRecord::id).containsExactly(longWorker);
    }
}
