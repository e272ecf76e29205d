package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.BOB;
import static dev.mcptasks.adapters.gateway.FrontHarness.V2025;
import static dev.mcptasks.adapters.gateway.FrontHarness.V2026;
import static dev.mcptasks.adapters.gateway.FrontHarness.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The 2025-11-25 front, driven through the dispatcher over a real TaskService and store. */
class Front2025Test {
    private final FrontHarness front = new FrontHarness();
    private final RecordingSession session = new RecordingSession("s-1");

    private ObjectNode call(String principal, FrontSession on, String params) {
        return front.result(principal, on, front.request("tools/call", params));
    }

    /** Creates a task for ALICE and returns its id. */
    private String createTask() {
        return call(ALICE, session, "{'name':'alpha__long_job','arguments':{'n':3},'task':{'ttl':60000}}")
                .path("task").path("taskId").asText();
    }

    @Test
    void initializeAdvertisesToolsAndTheTasksUtility() {
        ObjectNode result = front.result(ALICE, session, front.request("initialize",
                "{'protocolVersion':'2025-11-25','capabilities':{},'clientInfo':{'name':'c','version':'1'}}"));

        assertThat(result.path("protocolVersion").asText()).isEqualTo(V2025);
        assertThat(result.path("capabilities").path("tools").isObject()).isTrue();
        assertThat(result.path("capabilities").path("tasks")).isEqualTo(FrontHarness.json(
                "{'list':{},'cancel':{},'requests':{'tools':{'call':{}}}}"));
        assertThat(result.path("serverInfo")).isEqualTo(FrontHarness.json("{'name':'mcp-tasks-test','version':'9.9'}"));
    }

    @Test
    void initializeAnswersItsOwnVersionToAnUnknownOneAndEchoesAnOlderKnownOne() {
        assertThat(front.result(ALICE, session, front.request("initialize", "{'protocolVersion':'2099-01-01'}"))
                .path("protocolVersion").asText()).isEqualTo(V2025);
        assertThat(front.result(ALICE, session, front.request("initialize", "{'protocolVersion':'2025-06-18'}"))
                .path("protocolVersion").asText()).isEqualTo("2025-06-18");
    }

    @Test
    void pingAnswersEmptyAndNotificationsGetNoResponse() {
        assertThat(front.result(ALICE, session, front.request("ping", "{}"))).isEmpty();
        CompletableFuture<Optional<ObjectNode>> initialized = front.dispatch(ALICE, session,
                FrontHarness.json("{'jsonrpc':'2.0','method':'notifications/initialized'}"));
        assertThat(initialized.join()).isEmpty();
    }

    @Test
    void toolsListRenamesEveryToolAndOffersTaskSupportWithSchemasUnchanged() {
        JsonNode tools = front.result(ALICE, session, front.request("tools/list", "{}")).path("tools");

        assertThat(tools).hasSize(3);
        assertThat(tools.findValuesAsText("name")).containsExactly("alpha__long_job", "alpha__echo", "beta__echo");
        for (JsonNode tool : tools) {
            assertThat(tool.path("execution").path("taskSupport").asText()).isEqualTo("optional");
            assertThat(tool.path("inputSchema")).isEqualTo(FrontHarness.json(
                    "{'type':'object','properties':{'n':{'type':'integer'}}}"));
        }
        assertThat(tools.get(2).path("description").asText()).isEqualTo("does echo");
    }

    @Test
    void aTaskAugmentedCallAnswersTheStoredTaskAtOnce() {
        ObjectNode result = call(ALICE, session,
                "{'name':'alpha__long_job','arguments':{'n':3},'task':{'ttl':60000}}");

        JsonNode task = result.path("task");
        String id = task.path("taskId").asText();
        TaskRecord row = front.row(id);
        assertThat(row.definition().principal()).isEqualTo(ALICE);
        assertThat(row.definition().serverName()).isEqualTo("alpha");
        assertThat(row.definition().toolName()).isEqualTo("long_job");
        assertThat(row.definition().argumentsJson()).isEqualTo("{\"n\":3}");
        assertThat(row.definition().requestedTtlMs()).isEqualTo(60000L);
        assertThat(task.path("status").asText()).isEqualTo("working");
        assertThat(task.path("createdAt").asText()).isEqualTo("2026-01-01T00:00:00.000Z");
        assertThat(task.path("lastUpdatedAt").asText()).isEqualTo("2026-01-01T00:00:00.000Z");
        assertThat(task.path("ttl").isIntegralNumber()).as("the stored ttl is served").isTrue();
        assertThat(task.path("ttl").asLong()).isEqualTo(60000L);
        assertThat(task.path("pollInterval").asLong()).isEqualTo(500);
    }

    @Test
    void aCallWithABadFieldIsInvalidParamsNamingIt() {
        assertThat(errorOf(front.send(ALICE, session, front.request("tools/call",
                "{'name':'alpha__long_job','task':{'ttl':-5}}"))).path("message").asText())
                .contains("params.task.ttl");
        assertThat(errorOf(front.send(ALICE, session, front.request("tools/call",
                "{'name':'alpha__long_job','arguments':[1]}"))).path("message").asText())
                .contains("params.arguments");
        JsonNode unknown = errorOf(front.send(ALICE, session, front.request("tools/call",
                "{'name':'alpha__nothing','task':{}}")));
        assertThat(unknown.path("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.path("message").asText()).isEqualTo("Unknown tool: alpha__nothing");
        assertThat(front.repo.list(dev.mcptasks.ports.repository.TaskQuery.all(10))).isEmpty();
    }

    @Test
    void tasksGetFollowsTheRowThroughItsLifecycle() {
        String id = createTask();
        ObjectNode get = front.request("tasks/get", "{'taskId':'" + id + "'}");

        front.created(id, V2025);
        front.clock.advance(java.time.Duration.ofMillis(1500));
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "step 2/3"));
        ObjectNode working = front.result(ALICE, session, get);
        assertThat(working.path("status").asText()).isEqualTo("working");
        assertThat(working.path("statusMessage").asText()).isEqualTo("step 2/3");
        assertThat(working.path("lastUpdatedAt").asText()).isEqualTo("2026-01-01T00:00:01.500Z");

        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
        assertThat(front.result(ALICE, session, get).path("status").asText()).isEqualTo("completed");
    }

    @Test
    void tasksResultBlocksUntilTheTaskEndsThenAnswersTheSameResultEveryTime() {
        String id = createTask();
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tasks/result", "{'taskId':'" + id + "'}"));
        front.created(id, V2025);
        front.tick();
        assertThat(blocked).isNotDone();

        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
        front.tick();

        ObjectNode result = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("done");
        assertThat(result.path("_meta").path(Front2025.RELATED_TASK).path("taskId").asText()).isEqualTo(id);
        assertThat(front.result(ALICE, session, front.request("tasks/result", "{'taskId':'" + id + "'}")))
                .isEqualTo(result);
        assertThat(front.door.watching()).isZero();
    }

    @Test
    void aFailedToolCallIsItsErrorResultAndAFailureWithoutResultIsAnErrorNamingTheTask() {
        String toolError = createTask();
        front.created(toolError, V2025);
        front.polled(toolError, new StoredSnapshot(TaskStatus.FAILED, null,
                "{\"content\":[{\"type\":\"text\",\"text\":\"upstream 503\"}],\"isError\":true}", false,
                "upstream 503", ErrorCodes.REMOTE_FAILED, null));
        String lost = createTask();
        front.created(lost, V2025);
        front.polled(lost, StoredSnapshot.failed(ErrorCodes.REMOTE_TASK_LOST, "server 'alpha' lost the task"));

        ObjectNode failedTask = front.result(ALICE, session, front.request("tasks/get", "{'taskId':'" + toolError
                + "'}"));
        assertThat(failedTask.path("status").asText()).isEqualTo("failed");
        assertThat(failedTask.path("statusMessage").asText()).isEqualTo("upstream 503");
        ObjectNode result = front.result(ALICE, session, front.request("tasks/result", "{'taskId':'" + toolError
                + "'}"));
        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("upstream 503");

        JsonNode error = errorOf(front.send(ALICE, session, front.request("tasks/result", "{'taskId':'" + lost
                + "'}")));
        assertThat(error.path("code").asInt()).isEqualTo(-32603);
        assertThat(error.path("message").asText()).isEqualTo("server 'alpha' lost the task");
        assertThat(error.path("data")).isEqualTo(FrontHarness.json("{'taskId':'" + lost
                + "','errorCode':'remote_task_lost'}"));
    }

    @Test
    void aPlainCallIsPersistedFirstThenAnswersTheResultWhenTheTaskEnds() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo','arguments':{'n':1}}"));
        TaskRecord row = front.repo.list(dev.mcptasks.ports.repository.TaskQuery.all(10)).get(0);
        assertThat(row.definition().principal()).isEqualTo(ALICE);
        assertThat(row.definition().serverName()).isEqualTo("beta");
        String id = row.id().value();

        front.created(id, V2025);
        front.tick();
        assertThat(blocked).isNotDone();
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'1'}]}"));
        front.tick();

        ObjectNode result = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("1");
        assertThat(result.path("_meta").has(Front2025.RELATED_TASK)).as("a plain result names no task").isFalse();
        assertThat(session.notifications).isEmpty();
    }

    @Test
    void aPlainCallIsAnsweredFromTheWorkersAnnouncedCommitWithoutWaitingForAPoll() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo','arguments':{'n':2}}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2025);
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'2'}]}"));
        assertThat(blocked).as("no announcement, no poll yet").isNotDone();

        front.changes.announce(TaskId.of(id));

        ObjectNode result = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("2");
    }

    @Test
    void anotherTasksAnnouncementReadsNothingAndAForeignChangeReadsEveryWatchedRow() {
        AtomicReference<TaskChangeListener> foreign = new AtomicReference<>();
        FrontHarness harness = new FrontHarness(repo -> ComposedTaskRepository.of(repo)
                .withStoreScope(scope -> new ForwardingStoreScope() {
                    @Override
                    public StoreScope delegate() {
                        return scope;
                    }

                    @Override
                    public WorkSubscription onForeignChange(TaskChangeListener listener) {
                        foreign.set(listener);
                        return () -> foreign.set(null);
                    }
                }));
        CompletableFuture<Optional<ObjectNode>> blocked = harness.dispatch(ALICE, session,
                harness.request("tools/call", "{'name':'beta__echo','arguments':{'n':3}}"));
        String id = harness.repo.list(TaskQuery.all(10)).get(0).id().value();
        harness.created(id, V2025);
        harness.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'3'}]}"));

        harness.changes.announce(TaskId.of("task-999999"));
        assertThat(blocked).as("another row's change reads nothing").isNotDone();

        assertThat(foreign.get()).as("the watcher follows other processes' commits while it waits").isNotNull();
        foreign.get().changedSomewhere();
        assertThat(FrontHarness.answered(blocked).path("result").path("content").get(0).path("text").asText())
                .isEqualTo("3");
    }

    @Test
    void aPlainCallWhoseTaskIsCancelledAnswersAnErrorNamingTheTask() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo'}"));
        String id = front.repo.list(dev.mcptasks.ports.repository.TaskQuery.all(10)).get(0).id().value();
        front.result(ALICE, session, front.request("tasks/cancel", "{'taskId':'" + id + "'}"));
        front.tick();

        JsonNode error = errorOf(FrontHarness.answered(blocked));
        assertThat(error.path("code").asInt()).isEqualTo(-32603);
        assertThat(error.path("message").asText()).startsWith("Task " + id + " was cancelled");
    }

    @Test
    void cancelOfAPendingTaskCancelsItOfAWorkingOneRecordsTheRequestOfAnEndedOneIsRefused() {
        String pending = createTask();
        assertThat(front.result(ALICE, session, front.request("tasks/cancel", "{'taskId':'" + pending + "'}"))
                .path("status").asText()).isEqualTo("cancelled");

        // a working task's cancel is answered once it settled: the spec's answer is the task in cancelled
        String working = createTask();
        front.created(working, V2025);
        CompletableFuture<Optional<ObjectNode>> requested = front.dispatch(ALICE, session,
                front.request("tasks/cancel", "{'taskId':'" + working + "'}"));
        front.tick();
        assertThat(requested).as("waits for the cancel to settle").isNotDone();
        assertThat(front.row(working).control().cancelRequestedAt()).isNotNull();
        front.cancelConfirmed(working);
        front.tick();
        assertThat(FrontHarness.answered(requested).path("result").path("status").asText()).isEqualTo("cancelled");

        JsonNode refused = errorOf(front.send(ALICE, session, front.request("tasks/cancel", "{'taskId':'"
                + working + "'}")));
        assertThat(refused.path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("message").asText()).isEqualTo("Cannot cancel task in terminal status: cancelled");
    }

    @Test
    void aPlainCallThatAskedForProgressHearsEachNewProgressMessageUnderItsToken() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session, front.request("tools/call",
                "{'name':'beta__echo','_meta':{'progressToken':'p-7'}}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2025);
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "step 1 of 3"));
        front.tick();
        front.tick();
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "step 2 of 3"));
        front.tick();
        front.polled(id, FrontHarness.completed("{'content':[]}"));
        front.tick();

        assertThat(FrontHarness.answered(blocked).has("result")).isTrue();
        assertThat(session.notifications).extracting(n -> n.path("method").asText())
                .containsOnly(ProgressRelay.METHOD);
        assertThat(session.notifications).extracting(n -> n.path("params").path("progressToken").asText()
                + " " + n.path("params").path("progress").asInt() + " " + n.path("params").path("message").asText())
                .containsExactly("p-7 1 step 1 of 3", "p-7 2 step 2 of 3");
    }

    @Test
    void aPlainCallDrivenByThisProcesssWorkerHearsEveryUpstreamProgressReportAsItArrives() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session, front.request("tools/call",
                "{'name':'beta__echo','_meta':{'progressToken':7}}"));
        TaskId id = front.repo.list(TaskQuery.all(10)).get(0).id();
        front.created(id.value(), V2025);
        front.changes.progressed(id, new CallProgress(0, 100.0, null));
        front.changes.progressed(id, new CallProgress(50, 100.0, "half"));
        front.changes.progressed(TaskId.of("someone-else"), new CallProgress(1, null, "not mine"));
        front.changes.progressed(id, new CallProgress(100, 100.0, null));
        // the throttled message the worker stored is not relayed a second time
        front.polled(id.value(), FrontHarness.snapshot(TaskStatus.WORKING, "half"));
        front.tick();
        front.polled(id.value(), FrontHarness.completed("{'content':[]}"));
        front.tick();
        front.changes.progressed(id, new CallProgress(101, 100.0, "too late"));

        assertThat(FrontHarness.answered(blocked).has("result")).isTrue();
        assertThat(session.notifications).extracting(n -> n.path("params").toString()).containsExactly(
                "{\"progressToken\":7,\"progress\":0,\"total\":100}",
                "{\"progressToken\":7,\"progress\":50,\"total\":100,\"message\":\"half\"}",
                "{\"progressToken\":7,\"progress\":100,\"total\":100}");
    }

    @Test
    void aTaskNotOverSaysWhenItsUpstreamLastAnsweredAndAnEndedOneSaysNothing() {
        String id = createTask();
        ObjectNode pending = front.result(ALICE, session, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        JsonNode before = pending.path("_meta").path(TaskShapes.LIVENESS);
        assertThat(before.path("upstreamLastAnsweredAt").isNull()).isTrue();
        assertThat(before.path("leaseExpiresAt").isNull()).isTrue();

        front.created(id, V2025);
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "half way"));
        ObjectNode working = front.result(ALICE, session, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        assertThat(working.path("_meta").path(TaskShapes.LIVENESS).path("upstreamLastAnsweredAt").asText())
                .isEqualTo(FrontJson.timestamp(front.clock.now()));
        assertThat(working.path("_meta").path(TaskShapes.LIVENESS).path("leaseExpiresAt").isNull())
                .as("no worker holds it between polls").isTrue();

        front.polled(id, FrontHarness.completed("{'content':[]}"));
        ObjectNode done = front.result(ALICE, session, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        assertThat(done.has("_meta")).isFalse();
    }

    @Test
    void aCancelThatDoesNotSettleWithinItsBoundAnswersTheTaskAsItIs() {
        String working = createTask();
        front.created(working, V2025);
        int following = front.door.watching();
        CompletableFuture<Optional<ObjectNode>> requested = front.dispatch(ALICE, session,
                front.request("tasks/cancel", "{'taskId':'" + working + "'}"));
        front.tick();
        assertThat(requested).isNotDone();
        assertThat(front.door.watching()).isEqualTo(following + 1);

        front.clock.advance(Front2025.CANCEL_SETTLE_WAIT);

        ObjectNode task = (ObjectNode) FrontHarness.answered(requested).get("result");
        assertThat(task.path("status").asText()).isEqualTo("working");
        assertThat(task.path("statusMessage").asText()).isEqualTo(TaskShapes.CANCEL_REQUESTED);
        assertThat(front.door.watching()).as("the wait stopped").isEqualTo(following);
    }

    @Test
    void everyActionOfAPrincipalIsInTheAuditLogUnderItsPrincipal() {
        String id = createTask();
        front.result(ALICE, session, front.request("tasks/cancel", "{'taskId':'" + id + "'}"));
        front.send(BOB, new RecordingSession("s-bob"), front.request("tasks/cancel", "{'taskId':'" + id + "'}"));

        assertThat(front.audit.list(new dev.mcptasks.ports.audit.AuditQuery(TaskId.of(id), null, 10)))
                .extracting(r -> r.principal() + " " + r.channel().wireName() + " " + r.action().wireName() + " "
                        + r.detail())
                .containsExactly(BOB + " gateway cancel_request not_found",
                        ALICE + " gateway cancel_request cancelled_locally",
                        ALICE + " gateway submit alpha/long_job");
    }

    @Test
    void anotherPrincipalFindsNothingOfAlicesTask() {
        String id = createTask();
        RecordingSession bobs = new RecordingSession("s-bob");
        for (String method : new String[] {"tasks/get", "tasks/result", "tasks/cancel"}) {
            JsonNode error = errorOf(front.send(BOB, bobs, front.request(method, "{'taskId':'" + id + "'}")));
            assertThat(error.path("code").asInt()).as(method).isEqualTo(-32602);
            assertThat(error.path("message").asText()).as(method).isEqualTo("Task not found");
        }
        assertThat(front.result(BOB, bobs, front.request("tasks/list", "{}")).path("tasks")).isEmpty();
        assertThat(front.row(id).control().cancelRequestedAt()).isNull();
        JsonNode unknown = errorOf(front.send(ALICE, session, front.request("tasks/get", "{'taskId':'nope'}")));
        assertThat(unknown.path("message").asText()).isEqualTo("Task not found");
    }

    @Test
    void tasksListPagesThePrincipalsTasksNewestFirstWithAnOpaqueCursor() {
        for (int i = 0; i < TaskPages.PAGE_SIZE + 2; i++) {
            createTask();
        }
        call(BOB, new RecordingSession("s-bob"), "{'name':'alpha__echo','task':{}}");

        ObjectNode first = front.result(ALICE, session, front.request("tasks/list", "{}"));
        assertThat(first.path("tasks")).hasSize(TaskPages.PAGE_SIZE);
        assertThat(first.path("tasks").get(0).path("taskId").asText()).isEqualTo("task-000052");
        String cursor = first.path("nextCursor").asText();
        assertThat(cursor).doesNotContain("task-");

        ObjectNode second = front.result(ALICE, session, front.request("tasks/list", "{'cursor':'" + cursor
                + "'}"));
        assertThat(second.path("tasks").findValuesAsText("taskId")).containsExactly("task-000002", "task-000001");
        assertThat(second.has("nextCursor")).isFalse();
        assertThat(errorOf(front.send(ALICE, session, front.request("tasks/list", "{'cursor':'%%%'}")))
                .path("message").asText()).isEqualTo("Invalid cursor");
    }

    @Test
    void statusNotificationsGoToEverySessionThatFollowsTheTaskUntilItEnds() {
        RecordingSession reader = new RecordingSession("s-2");
        RecordingSession bystander = new RecordingSession("s-3");
        RecordingSession bobs = new RecordingSession("s-bob");
        String id = createTask();
        // a session of the same principal follows the task by reading it, once however often it reads
        front.result(ALICE, reader, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        front.result(ALICE, reader, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        front.send(BOB, bobs, front.request("tasks/get", "{'taskId':'" + id + "'}"));

        front.tick();
        assertThat(session.notifications).isEmpty();
        front.created(id, V2025);
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "half way"));
        front.tick();
        front.tick();
        front.polled(id, FrontHarness.completed("{'content':[]}"));
        front.tick();
        front.tick();

        assertThat(session.statuses()).containsExactly("working", "completed");
        ObjectNode first = session.notifications.get(0);
        assertThat(first.path("method").asText()).isEqualTo("notifications/tasks/status");
        assertThat(first.path("params").path("taskId").asText()).isEqualTo(id);
        assertThat(first.path("params").path("statusMessage").asText()).isEqualTo("half way");
        assertThat(reader.statuses()).containsExactly("working", "completed");
        assertThat(bystander.notifications).isEmpty();
        assertThat(bobs.notifications).as("another principal's session learns nothing").isEmpty();
        assertThat(front.door.watching()).isZero();
    }

    @Test
    void aClosedSessionGetsNoMoreNotifications() {
        String id = createTask();
        front.dispatcher.sessionClosed(session);
        front.created(id, V2025);
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "half way"));
        front.tick();

        assertThat(session.notifications).isEmpty();
        assertThat(front.door.watching()).isZero();
    }

    @Test
    void inputRequiredIsReportedHonestlyToA2025Client() {
        String id = createTask();
        front.created(id, V2026);
        front.polled(id, FrontHarness.inputRequired(
                "{'k1':{'method':'elicitation/create','params':{'message':'Deploy to prod?'}}}"));

        ObjectNode task = front.result(ALICE, session, front.request("tasks/get", "{'taskId':'" + id + "'}"));
        assertThat(task.path("status").asText()).isEqualTo("input_required");
        assertThat(task.path("statusMessage").asText()).isEqualTo("Deploy to prod? (" + TaskShapes.INPUT_2025
                + ")");
    }

    @Test
    void anUnknownMethodIsMethodNotFound() {
        JsonNode error = errorOf(front.send(ALICE, session, front.request("resources/list", "{}")));
        assertThat(error.path("code").asInt()).isEqualTo(-32601);
    }
}
