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
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 front (stateless, enveloped, tasks extension), driven through the dispatcher. */
class Front2026Test {
    private final FrontHarness front = new FrontHarness();

    private ObjectNode result(String principal, String method, String params) {
        return front.result(principal, null, front.v2026(method, params, true));
    }

    private JsonNode error(String principal, ObjectNode message) {
        return errorOf(front.send(principal, null, message));
    }

    /** Creates a task for ALICE with the extension declared; returns its id. */
    private String createTask() {
        return result(ALICE, "tools/call", "{'name':'alpha__long_job','arguments':{'n':3}}").path("taskId").asText();
    }

    private ObjectNode get(String id) {
        return result(ALICE, "tasks/get", "{'taskId':'" + id + "'}");
    }

    @Test
    void discoverNamesTheVersionToolsAndTheTasksExtensionWithServerInfo() {
        ObjectNode result = result(ALICE, "server/discover", "{}");

        assertThat(result.path("supportedVersions").get(0).asText()).isEqualTo(V2026);
        assertThat(result.path("capabilities")).isEqualTo(FrontHarness.json(
                "{'tools':{},'extensions':{'io.modelcontextprotocol/tasks':{}}}"));
        assertThat(result.path("resultType").asText()).isEqualTo("complete");
        assertThat(result.path("_meta").path(Envelope2026.SERVER_INFO)).isEqualTo(FrontHarness.json(
                "{'name':'mcp-tasks-test','version':'9.9'}"));
    }

    @Test
    void aRequestWithoutSessionOrEnvelopeIsInvalidParams() {
        JsonNode missing = error(ALICE, front.request("tools/list", "{}"));
        assertThat(missing.path("code").asInt()).isEqualTo(-32602);
        assertThat(missing.path("message").asText()).contains(Envelope2026.PROTOCOL_VERSION);

        ObjectNode noCapabilities = front.v2026("tools/list", "{}", false);
        ((ObjectNode) noCapabilities.path("params").path("_meta")).remove(Envelope2026.CLIENT_CAPABILITIES);
        assertThat(error(ALICE, noCapabilities).path("message").asText())
                .isEqualTo("params._meta." + Envelope2026.CLIENT_CAPABILITIES + " is missing");
    }

    @Test
    void anUnsupportedVersionIsUnsupportedProtocolVersionWithTheSupportedOnes() {
        for (String version : new String[] {"2099-01-01", V2025}) {
            ObjectNode message = front.v2026("server/discover", "{}", true);
            ((ObjectNode) message.path("params").path("_meta")).put(Envelope2026.PROTOCOL_VERSION, version);

            JsonNode error = error(ALICE, message);
            assertThat(error.path("code").asInt()).isEqualTo(-32022);
            assertThat(error.path("data")).isEqualTo(FrontHarness.json("{'supported':['2026-07-28'],'requested':'"
                    + version + "'}"));
        }
    }

    @Test
    void cacheableResultsCarryTheCacheHintsTheSdkRequires() {
        // SEP-2549: server/discover and tools/list are cacheable results whose ttlMs and cacheScope the TypeScript
        // SDK v2 client validates (it refuses a tools/list without them); 0 and private: never reuse, never share
        for (String method : new String[] {"server/discover", "tools/list"}) {
            ObjectNode result = result(ALICE, method, "{}");
            assertThat(result.path("ttlMs").isIntegralNumber()).as(method).isTrue();
            assertThat(result.path("ttlMs").asLong()).as(method).isZero();
            assertThat(result.path("cacheScope").asText()).as(method).isEqualTo("private");
        }
    }

    @Test
    void toolsListStripsTaskSupportAndKeepsTheRest() {
        JsonNode tools = result(ALICE, "tools/list", "{}").path("tools");

        assertThat(tools.findValuesAsText("name")).containsExactly("alpha__long_job", "alpha__echo", "beta__echo");
        for (JsonNode tool : tools) {
            assertThat(tool.has("execution")).isFalse();
            assertThat(tool.path("inputSchema").path("type").asText()).isEqualTo("object");
        }
    }

    @Test
    void aCallDeclaringTheExtensionAnswersAFlatTaskOnceStored() {
        ObjectNode created = result(ALICE, "tools/call", "{'name':'alpha__long_job','arguments':{'n':3},"
                + "'task':{'ttl':5}}");

        assertThat(created.path("resultType").asText()).isEqualTo("task");
        assertThat(created.has("task")).isFalse();
        assertThat(created.path("status").asText()).isEqualTo("working");
        assertThat(created.has("ttlMs")).isTrue();
        assertThat(created.path("ttlMs").isNull()).as("no ttl stored, none served").isTrue();
        assertThat(created.path("pollIntervalMs").asLong()).isEqualTo(500);
        assertThat(created.path("createdAt").asText()).isEqualTo("2026-01-01T00:00:00.000Z");
        TaskRecord row = front.row(created.path("taskId").asText());
        assertThat(row.definition().principal()).isEqualTo(ALICE);
        assertThat(row.definition().requestedTtlMs()).as("a leftover 2025 task param is ignored").isNull();
    }

    @Test
    void aCallWithoutTheExtensionIsHeldUntilTheTaskEndsAndAnswersComplete() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, null,
                front.v2026("tools/call", "{'name':'alpha__echo','arguments':{'n':1}}", false));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2026);
        front.tick();
        assertThat(blocked).isNotDone();

        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'1'}]}"));
        front.tick();

        ObjectNode result = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(result.path("resultType").asText()).isEqualTo("complete");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("1");
        assertThat(result.path("_meta").has(Envelope2026.SERVER_INFO)).isTrue();
    }

    @Test
    void tasksGetInlinesTheResultOnceCompleted() {
        String id = createTask();
        front.created(id, V2026);
        ObjectNode working = get(id);
        assertThat(working.path("status").asText()).isEqualTo("working");
        assertThat(working.path("resultType").asText()).isEqualTo("complete");
        assertThat(working.has("result")).isFalse();

        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
        ObjectNode completed = get(id);
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed.path("result")).isEqualTo(FrontHarness.json(
                "{'content':[{'type':'text','text':'done'}],'resultType':'complete'}"));
    }

    @Test
    void theUpstreamsOwnTaskIdInAResultNeverReachesTheCaller() {
        String id = createTask();
        front.created(id, V2025);
        front.polled(id, FrontHarness.completed("{'content':[],'_meta':{'io.modelcontextprotocol/related-task':"
                + "{'taskId':'upstream-7'},'vendor':1}}"));

        JsonNode result = get(id).path("result");
        assertThat(result.path("_meta")).isEqualTo(FrontHarness.json("{'vendor':1}"));
        assertThat(result.toString()).doesNotContain("upstream-7");
    }

    @Test
    void aToolErrorIsCompletedWithTheErrorResultAndAFailureIsFailedWithItsError() {
        String toolError = createTask();
        front.created(toolError, V2025);
        front.polled(toolError, new StoredSnapshot(TaskStatus.FAILED, null,
                "{\"content\":[{\"type\":\"text\",\"text\":\"upstream 503\"}],\"isError\":true}", false,
                "upstream 503", ErrorCodes.REMOTE_FAILED, null));
        ObjectNode completed = get(toolError);
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(completed.path("result").path("isError").asBoolean()).isTrue();

        String failed = createTask();
        front.created(failed, V2026);
        front.polled(failed, StoredSnapshot.failed(ErrorCodes.REMOTE_FAILED, "error -32603: rate limit"));
        ObjectNode task = get(failed);
        assertThat(task.path("status").asText()).isEqualTo("failed");
        assertThat(task.path("statusMessage").asText()).isEqualTo("error -32603: rate limit");
        assertThat(task.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(task.path("error").path("message").asText()).isEqualTo("error -32603: rate limit");
        assertThat(task.has("result")).isFalse();
    }

    @Test
    void aTruncatedResultIsShownAsATextResultSayingSo() {
        String id = createTask();
        front.created(id, V2026);
        front.polled(id, new StoredSnapshot(TaskStatus.COMPLETED, null,
                "{\"truncated\":true,\"originalBytes\":9000000,\"preview\":\"{\\\"content\\\":[\"}", true, null,
                null, null));

        JsonNode result = get(id).path("result");
        assertThat(result.path("content").get(0).path("text").asText()).contains("9000000 bytes");
        assertThat(result.path("_meta").path("dev.mcptasks/resultTruncated").path("originalBytes").asLong())
                .isEqualTo(9000000);
    }

    @Test
    void inputRequestsAreInlineAndTasksUpdateStoresTheAnswers() {
        String id = createTask();
        front.created(id, V2026);
        front.polled(id, FrontHarness.inputRequired(
                "{'k1':{'method':'elicitation/create','params':{'message':'Deploy?'}}}"));

        ObjectNode task = get(id);
        assertThat(task.path("status").asText()).isEqualTo("input_required");
        assertThat(task.path("inputRequests").path("k1").path("method").asText()).isEqualTo("elicitation/create");

        ObjectNode ack = result(ALICE, "tasks/update", "{'taskId':'" + id + "','inputResponses':{"
                + "'k1':{'action':'accept','content':{'ok':true}},'unknown':{'action':'decline'}}}");
        assertThat(ack.path("resultType").asText()).isEqualTo("complete");
        assertThat(front.row(id).state().inputResponsesJson())
                .isEqualTo("{\"k1\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}");

        JsonNode wrapped = error(ALICE, front.v2026("tasks/update", "{'taskId':'" + id + "','inputResponses':{"
                + "'k1':5}}", true));
        assertThat(wrapped.path("message").asText()).contains("params.inputResponses.k1");
    }

    @Test
    void anAnswerToA2025TaskIsRefusedNamingWhy() {
        String id = createTask();
        front.created(id, V2025);
        front.polled(id, FrontHarness.inputRequired("{'k1':{'method':'elicitation/create','params':{}}}"));

        JsonNode error = error(ALICE, front.v2026("tasks/update", "{'taskId':'" + id + "','inputResponses':{"
                + "'k1':{'action':'accept'}}}", true));
        assertThat(error.path("code").asInt()).isEqualTo(-32602);
        assertThat(error.path("message").asText()).contains("2025-11-25");
        assertThat(front.row(id).state().inputResponsesJson()).isNull();
    }

    @Test
    void aHeldCallPassesAnInputRoundThroughAndFinishesAfterTheAnswer() {
        CompletableFuture<Optional<ObjectNode>> first = front.dispatch(ALICE, null,
                front.v2026("tools/call", "{'name':'alpha__long_job'}", false));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2026);
        front.polled(id, FrontHarness.inputRequired(
                "{'k1':{'method':'elicitation/create','params':{'message':'Deploy?'}}}"));
        front.tick();

        ObjectNode round = (ObjectNode) FrontHarness.answered(first).get("result");
        assertThat(round.path("resultType").asText()).isEqualTo("input_required");
        assertThat(round.path("inputRequests").path("k1").path("params").path("message").asText())
                .isEqualTo("Deploy?");
        String state = round.path("requestState").asText();

        CompletableFuture<Optional<ObjectNode>> retry = front.dispatch(ALICE, null, front.v2026("tools/call",
                "{'name':'alpha__long_job','inputResponses':{'k1':{'action':'accept'}},'requestState':'" + state
                        + "'}", false));
        assertThat(front.row(id).state().inputResponsesJson()).isEqualTo("{\"k1\":{\"action\":\"accept\"}}");
        front.tick();
        assertThat(retry).as("the answered request is not handed back").isNotDone();

        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'deployed'}]}"));
        front.tick();
        ObjectNode result = (ObjectNode) FrontHarness.answered(retry).get("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("deployed");
        assertThat(front.repo.list(TaskQuery.all(10))).as("the retry made no second task").hasSize(1);

        JsonNode bobs = error(BOB, front.v2026("tools/call", "{'name':'alpha__long_job','requestState':'" + state
                + "'}", false));
        assertThat(bobs.path("message").asText()).isEqualTo("Task not found");
    }

    @Test
    void cancelIsAnAcknowledgement() {
        String id = createTask();
        front.created(id, V2026);

        ObjectNode ack = result(ALICE, "tasks/cancel", "{'taskId':'" + id + "'}");
        assertThat(ack.path("resultType").asText()).isEqualTo("complete");
        assertThat(ack.has("status")).isFalse();
        assertThat(front.row(id).control().cancelRequestedAt()).isNotNull();
        front.cancelConfirmed(id);
        assertThat(result(ALICE, "tasks/cancel", "{'taskId':'" + id + "'}").path("resultType").asText())
                .isEqualTo("complete");
        assertThat(get(id).path("status").asText()).isEqualTo("cancelled");
    }

    @Test
    void anotherPrincipalFindsNothingOfAlicesTask() {
        String id = createTask();
        front.created(id, V2026);
        front.polled(id, FrontHarness.inputRequired("{'k1':{'method':'elicitation/create','params':{}}}"));
        for (String params : new String[] {"{'taskId':'" + id + "'}",
                "{'taskId':'" + id + "','inputResponses':{'k1':{'action':'accept'}}}"}) {
            for (String method : new String[] {"tasks/get", "tasks/update", "tasks/cancel"}) {
                JsonNode error = error(BOB, front.v2026(method, params, true));
                assertThat(error.path("code").asInt()).as(method).isEqualTo(-32602);
                assertThat(error.path("message").asText()).as(method).isEqualTo("Task not found");
            }
        }
        assertThat(front.row(id).state().inputResponsesJson()).isNull();
        assertThat(front.row(id).control().cancelRequestedAt()).isNull();
    }

    @Test
    void tasksResultAndTasksListDoNotExistIn2026() {
        String id = createTask();
        for (String method : new String[] {"tasks/result", "tasks/list", "initialize"}) {
            JsonNode error = error(ALICE, front.v2026(method, "{'taskId':'" + id + "'}", true));
            assertThat(error.path("code").asInt()).as(method).isEqualTo(-32601);
        }
    }

    @Test
    void tasksMethodsNeedTheExtensionDeclared() {
        String id = createTask();
        JsonNode error = error(ALICE, front.v2026("tasks/get", "{'taskId':'" + id + "'}", false));
        assertThat(error.path("code").asInt()).isEqualTo(-32021);
        assertThat(error.path("data")).isEqualTo(FrontHarness.json(
                "{'requiredCapabilities':{'extensions':{'io.modelcontextprotocol/tasks':{}}}}"));
    }

    @Test
    void aTaskCreatedByEitherGenerationReadsTheSameInTheOther() {
        RecordingSession session = new RecordingSession("s-1");
        String v2025 = front.result(ALICE, session, front.request("tools/call",
                "{'name':'alpha__long_job','task':{}}")).path("task").path("taskId").asText();
        String v2026 = createTask();
        for (String id : new String[] {v2025, v2026}) {
            front.created(id, id.equals(v2025) ? V2026 : V2025);
            front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'" + id + "'}]}"));
        }

        assertThat(get(v2025).path("result").path("content").get(0).path("text").asText()).isEqualTo(v2025);
        ObjectNode fetched = front.result(ALICE, session, front.request("tasks/result", "{'taskId':'" + v2026
                + "'}"));
        assertThat(fetched.path("content").get(0).path("text").asText()).isEqualTo(v2026);
        assertThat(front.result(ALICE, session, front.request("tasks/list", "{}")).path("tasks")).hasSize(2);
    }
}
