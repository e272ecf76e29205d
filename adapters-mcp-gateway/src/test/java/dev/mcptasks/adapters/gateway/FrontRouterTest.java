package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingTaskRecords;
import dev.mcptasks.ports.repository.RepositoryUnavailableException;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRecords;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Message classification, error mapping and the end of blocked calls whose client went away. */
class FrontRouterTest {
    private final RecordingSession session = new RecordingSession("s-1");

    /** Task records that count the store's reads of rows (statements, rows asked for), and fail them while down. */
    private static final class FlakyStore implements ForwardingTaskRecords {
        private final TaskRecords delegate;

        final AtomicBoolean down = new AtomicBoolean();
        int statements;
        int rows;

        FlakyStore(TaskRecords delegate) {
            this.delegate = delegate;
        }

        @Override
        public TaskRecords delegate() {
            return delegate;
        }

        @Override
        public Optional<TaskRecord> find(TaskId id) {
            read(1);
            return ForwardingTaskRecords.super.find(id);
        }

        @Override
        public List<TaskRecord> findAll(Collection<TaskId> ids) {
            read(ids.size());
            return ForwardingTaskRecords.super.findAll(ids);
        }

        private void read(int asked) {
            if (down.get()) {
                throw new RepositoryUnavailableException("connection to the database lost\nat line 2",
                        new IllegalStateException("socket closed"));
            }
            statements++;
            rows += asked;
        }
    }

    @Test
    void responsesAndNotificationsFromTheClientGetNoAnswer() {
        FrontHarness front = new FrontHarness();
        assertThat(front.dispatch(ALICE, session, FrontHarness.json("{'jsonrpc':'2.0','id':7,'result':{}}")).join())
                .isEmpty();
        assertThat(front.dispatch(ALICE, session, FrontHarness.json(
                "{'jsonrpc':'2.0','method':'notifications/cancelled','params':{'requestId':3}}")).join()).isEmpty();
    }

    @Test
    void aMalformedRequestIsAnErrorWithItsId() {
        FrontHarness front = new FrontHarness();
        ObjectNode noMethod = front.send(ALICE, session, FrontHarness.json("{'jsonrpc':'2.0','id':'x','method':5}"));
        assertThat(noMethod.path("id").asText()).isEqualTo("x");
        assertThat(errorOf(noMethod).path("code").asInt()).isEqualTo(-32600);

        ObjectNode badParams = front.send(ALICE, session, FrontHarness.json(
                "{'jsonrpc':'2.0','id':8,'method':'tasks/get','params':[1]}"));
        assertThat(badParams.path("id").asInt()).isEqualTo(8);
        assertThat(errorOf(badParams).path("message").asText()).isEqualTo("params must be an object");
        assertThat(errorOf(front.send(ALICE, session, front.request("tasks/get", "{'taskId':7}"))).path("message")
                .asText()).isEqualTo("params.taskId must be a string");
    }

    @Test
    void aStoreFailureIsAOneLineInternalErrorWithoutStackTrace() {
        FlakyStore[] store = new FlakyStore[1];
        FrontHarness front = new FrontHarness(repo -> ComposedTaskRepository.of(repo)
                .withTasks(tasks -> store[0] = new FlakyStore(tasks)));
        String id = front.result(ALICE, session, front.request("tools/call", "{'name':'alpha__echo','task':{}}"))
                .path("task").path("taskId").asText();
        store[0].down.set(true);

        JsonNode error = errorOf(front.send(ALICE, session, front.request("tasks/get", "{'taskId':'" + id + "'}")));
        assertThat(error.path("code").asInt()).isEqualTo(-32603);
        assertThat(error.path("message").asText()).isEqualTo("the task store is unavailable: connection to the"
                + " database lost");
        assertThat(error.has("data")).isFalse();
    }

    @Test
    void aBlockedCallWaitsThroughAStoreOutageAndStillAnswers() {
        FlakyStore[] store = new FlakyStore[1];
        FrontHarness front = new FrontHarness(repo -> ComposedTaskRepository.of(repo)
                .withTasks(tasks -> store[0] = new FlakyStore(tasks)));
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'alpha__echo'}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, FrontHarness.V2025);
        front.polled(id, FrontHarness.completed("{'content':[]}"));
        store[0].down.set(true);
        front.tick();
        assertThat(blocked).isNotDone();

        store[0].down.set(false);
        front.tick();
        assertThat(FrontHarness.answered(blocked).path("result").has("content")).isTrue();
    }

    @Test
    void aBlockedCallWhoseClientLeftStopsReadingTheStore() {
        FrontHarness front = new FrontHarness();
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'alpha__echo'}"));
        assertThat(front.door.watching()).isEqualTo(1);

        blocked.cancel(false);

        assertThat(front.door.watching()).isZero();
        front.tick();
        assertThat(front.clock.pendingTimers()).isZero();
    }

    @Test
    void aClientThatLeftBeforeItsHandlerRanLeavesNoWaitBehind() {
        Queue<Runnable> queued = new ArrayDeque<>();
        FrontHarness front = new FrontHarness(repo -> repo, queued::add);
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'alpha__echo'}"));

        blocked.cancel(false);
        drain(queued);

        assertThat(front.repo.list(TaskQuery.all(10))).as("the call was still persisted").hasSize(1);
        assertThat(front.door.watching()).isZero();
    }

    @Test
    void aWaitRegisteredWhileASweepIsQueuedIsCoveredByTheNextSweep() {
        Queue<Runnable> queued = new ArrayDeque<>();
        FrontHarness front = new FrontHarness(repo -> repo, queued::add);
        front.dispatch(ALICE, session, front.request("tools/call", "{'name':'alpha__echo'}"));
        drain(queued);
        front.tick();
        assertThat(queued).as("the sweep waits for the executor").hasSize(1);
        assertThat(front.clock.pendingTimers()).as("the safety-net timer re-armed at once").isEqualTo(1);
        Runnable sweep = queued.poll();

        // a second blocked call registers its wait while the sweep is queued: it queues no second pass and
        // schedules no second timer
        CompletableFuture<Optional<ObjectNode>> second = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo'}"));
        drain(queued);
        assertThat(front.door.watching()).isEqualTo(2);
        assertThat(front.clock.pendingTimers()).isEqualTo(1);
        sweep.run();
        assertThat(queued).as("the queued pass covered the late wait").isEmpty();

        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, FrontHarness.V2025);
        front.polled(id, FrontHarness.completed("{'content':[]}"));
        front.tick();
        drain(queued);
        assertThat(second).isDone();
        assertThat(front.door.watching()).isEqualTo(1);
    }

    private static void drain(Queue<Runnable> queued) {
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
    }

    @Test
    void aTaskCreatedAfterItsSessionClosedIsNotFollowed() {
        FrontHarness front = new FrontHarness();
        front.dispatcher.sessionClosed(session);

        String id = front.result(ALICE, session, front.request("tools/call", "{'name':'alpha__echo','task':{}}"))
                .path("task").path("taskId").asText();
        front.created(id, FrontHarness.V2025);
        front.polled(id, FrontHarness.snapshot(dev.mcptasks.domain.TaskStatus.WORKING, "moving"));
        front.tick();

        assertThat(front.door.watching()).isZero();
        assertThat(session.notifications).isEmpty();
    }

    @Test
    void manyBlockedCallsOnOneTaskShareOneReadPerSweep() {
        FlakyStore[] store = new FlakyStore[1];
        FrontHarness front = new FrontHarness(repo -> ComposedTaskRepository.of(repo)
                .withTasks(tasks -> store[0] = new FlakyStore(tasks)));
        String id = front.result(ALICE, session, front.request("tools/call", "{'name':'alpha__echo','task':{}}"))
                .path("task").path("taskId").asText();
        for (int i = 0; i < 5; i++) {
            front.dispatch(ALICE, session, front.request("tasks/result", "{'taskId':'" + id + "'}"));
        }
        store[0].rows = 0;

        front.tick();

        assertThat(store[0].rows).isEqualTo(1);
    }

    @Test
    void blockedCallsOnManyTasksAreReadInOneStatementPerSweep() {
        FlakyStore[] store = new FlakyStore[1];
        FrontHarness front = new FrontHarness(repo -> ComposedTaskRepository.of(repo)
                .withTasks(tasks -> store[0] = new FlakyStore(tasks)));
        List<CompletableFuture<?>> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = front.result(ALICE, session, front.request("tools/call", "{'name':'alpha__echo','task':{}}"))
                    .path("task").path("taskId").asText();
            waiting.add(front.dispatch(ALICE, session, front.request("tasks/result", "{'taskId':'" + id + "'}")));
        }
        store[0].statements = 0;
        store[0].rows = 0;

        front.tick();

        assertThat(waiting).noneMatch(CompletableFuture::isDone);
        assertThat(store[0].statements).isEqualTo(1);
        assertThat(store[0].rows).isEqualTo(5);
    }
}
