package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every scripted 2026-07-28 scenario, run by a subclass over one transport. A subclass connects a client to a
 * server with the given options and sends one raw request at a time; over HTTP it also checks the status of the last
 * answer ({@link #expectHttpStatus}), stdio has none.
 */
abstract class Scenarios2026 {
  static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  protected ReferenceServer server;

  /** Starts {@link #server} with {@code options} and connects the transport's client to it. */
  abstract void connect(ReferenceServerOptions options) throws Exception;

  abstract void disconnect() throws Exception;

  /** Sends one request with {@code params} exactly as given and returns the whole response message. */
  abstract JsonNode send(String method, ObjectNode params);

  /** Asserts the HTTP status of the last answer; a no-op on stdio. */
  abstract void expectHttpStatus(int status);

  static ReferenceServerOptions v2026Options() {
    return ReferenceServerOptions.defaults().withGeneration(ServedGenerations.V2026_07_28).withPollIntervalMs(50);
  }

  @BeforeEach
  void start() throws Exception {
    connect(v2026Options());
  }

  @AfterEach
  void stop() throws Exception {
    disconnect();
    server.close();
  }

  /** Reconnects to a fresh server with other options. */
  void restart(ReferenceServerOptions options) throws Exception {
    stop();
    connect(options);
  }

  @Test
  void discoverAdvertisesTheExtensionAndOnlyThe2026Version() {
    JsonNode result = result("server/discover", Json.v2026(null, true));
    assertThat(result.path("supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
    assertThat(result.path("capabilities").toString())
        .isEqualTo("{\"tools\":{},\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}");
    assertThat(result.path("resultType").asText()).isEqualTo("complete");
    assertThat(result.path("_meta").path(SERVER_INFO).path("name").asText()).isEqualTo("mcp-tasks-reference");
    expectHttpStatus(200);
  }

  @Test
  void aRequestWithoutTheEnvelopeIsInvalidParams() {
    JsonNode error = error("tools/list", Json.obj());
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("message").asText()).contains("envelope").contains("_meta");
    expectHttpStatus(400);
    ObjectNode noCapabilities = Json.obj("_meta", Json.obj("io.modelcontextprotocol/protocolVersion", "2026-07-28"));
    JsonNode partial = error("tools/list", noCapabilities);
    assertThat(partial.path("data").path("envelope").path("missing").toString()).contains("clientCapabilities");
  }

  @Test
  void anUnsupportedVersionAndInitializeAreRefusedNamingTheServedVersion() {
    ObjectNode params = Json.v2026(null, true);
    ((ObjectNode) params.get("_meta")).put("io.modelcontextprotocol/protocolVersion", "2099-01-01");
    JsonNode error = error("server/discover", params);
    assertThat(error.path("code").asInt()).isEqualTo(-32022);
    assertThat(error.path("message").asText()).isEqualTo("Unsupported protocol version: 2099-01-01");
    assertThat(error.path("data").toString())
        .isEqualTo("{\"supported\":[\"2026-07-28\"],\"requested\":\"2099-01-01\"}");
    expectHttpStatus(400);
    JsonNode initialize = error("initialize", Json.obj("protocolVersion", "2025-11-25", "capabilities", Json.obj(),
        "clientInfo", Json.obj("name", "old", "version", "1")));
    assertThat(initialize.path("code").asInt()).isEqualTo(-32022);
    assertThat(initialize.path("data").path("supported").toString()).isEqualTo("[\"2026-07-28\"]");
    expectHttpStatus(400);
  }

  @Test
  void aToolThatIsNotTaskCapableCompletesAtOnceEvenWithTheExtension() {
    JsonNode result = result("tools/call", Json.v2026(Json.obj("name", "echo", "arguments",
        Json.obj("text", "hi")), true));
    assertThat(result.path("resultType").asText()).isEqualTo("complete");
    assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("hi");
    assertThat(result.path("_meta").path(SERVER_INFO).isObject()).isTrue();
    JsonNode tools = result("tools/list", Json.v2026(null, true)).path("tools");
    assertThat(tools.findValuesAsText("name")).contains("work", "work_optional", "echo");
    assertThat(tools.findValues("execution")).isEmpty();
  }

  @Test
  void aTaskIsCreatedFlatAndCompletesWithItsResultInline() {
    ObjectNode params = Json.v2026(Json.obj("name", "work", "arguments", Json.obj("durationMs", 20, "result",
        "hello"), "task", Json.obj("ttl", 5000)), true); // a leftover 2025 task param is ignored
    JsonNode created = result("tools/call", params);
    assertThat(created.path("resultType").asText()).isEqualTo("task");
    assertThat(created.path("content").toString()).isEqualTo("[]");
    assertThat(created.has("task")).isFalse();
    assertThat(created.path("status").asText()).isEqualTo("working");
    assertThat(created.path("ttlMs").asLong()).isEqualTo(300_000);
    assertThat(created.path("pollIntervalMs").asLong()).isEqualTo(50);
    assertThat(created.path("createdAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{3})?Z");
    assertThat(created.has("lastUpdatedAt")).isTrue();
    assertThat(created.path("_meta").path(SERVER_INFO).isObject()).isTrue();
    String taskId = created.path("taskId").asText();
    assertThat(taskId).hasSize(32);

    JsonNode done = pollUntil(taskId, "completed");
    assertThat(done.path("resultType").asText()).isEqualTo("complete");
    assertThat(done.path("result").path("resultType").asText()).isEqualTo("complete");
    assertThat(done.path("result").path("content").get(0).path("text").asText()).isEqualTo("hello");
    assertThat(done.has("error")).isFalse();
    assertThat(done.path("ttlMs").asLong()).isEqualTo(300_000);
  }

  @Test
  void aFailureIsFailedWithAnErrorObject() {
    String taskId = createTask(Json.obj("durationMs", 5, "fail", true, "failMessage", "rate limited",
        "errorCode", -32000));
    JsonNode failed = pollUntil(taskId, "failed");
    assertThat(failed.path("error").toString()).isEqualTo("{\"code\":-32000,\"message\":\"rate limited\"}");
    assertThat(failed.path("statusMessage").asText()).isEqualTo("Tool execution failed: rate limited");
    assertThat(failed.has("result")).isFalse();
    String defaultCode = createTask(Json.obj("durationMs", 5, "fail", true));
    assertThat(pollUntil(defaultCode, "failed").path("error").path("code").asInt()).isEqualTo(-32603);
  }

  @Test
  void aToolErrorIsCompletedWithAnIsErrorResult() {
    String taskId = createTask(Json.obj("durationMs", 5, "fail", true, "failAs", "isError", "failMessage",
        "bad input"));
    JsonNode completed = pollUntil(taskId, "completed");
    assertThat(completed.path("result").path("isError").asBoolean()).isTrue();
    assertThat(completed.path("result").path("content").get(0).path("text").asText()).isEqualTo("bad input");
    assertThat(completed.has("error")).isFalse();
  }

  @Test
  void inputIsRequestedAndAnsweredThroughTasksUpdate() {
    JsonNode created = result("tools/call", Json.v2026(Json.obj("name", "work", "arguments",
        Json.obj("askInput", "Deploy to prod?", "durationMs", 5, "result", "deployed")), true));
    assertThat(created.path("status").asText()).isEqualTo("input_required");
    String taskId = created.path("taskId").asText();
    JsonNode waiting = taskGet(taskId);
    assertThat(waiting.path("status").asText()).isEqualTo("input_required");
    JsonNode requests = waiting.path("inputRequests");
    assertThat(requests.size()).isEqualTo(1);
    String key = requests.fieldNames().next();
    assertThat(key).startsWith("input-");
    JsonNode request = requests.get(key);
    assertThat(request.path("method").asText()).isEqualTo("elicitation/create");
    assertThat(request.path("params").path("mode").asText()).isEqualTo("form");
    assertThat(request.path("params").path("message").asText()).isEqualTo("Deploy to prod?");
    assertThat(request.path("params").path("requestedSchema").path("required").toString()).isEqualTo("[\"ok\"]");

    // wrapped and unknown entries are ignored with a plain ack
    JsonNode ignored = update(taskId, Json.obj(key, Json.obj("result", Json.obj("action", "accept")),
        "never-issued", Json.obj("action", "accept", "content", Json.obj("ok", true))));
    assertThat(ignored.toString()).contains("\"resultType\":\"complete\"");
    assertThat(taskGet(taskId).path("status").asText()).isEqualTo("input_required");

    ObjectNode answer = Json.obj("action", "accept", "content", Json.obj("ok", true));
    assertThat(update(taskId, Json.obj(key, answer)).path("resultType").asText()).isEqualTo("complete");
    // a second answer to the same key is ignored: the task ends with the first one
    update(taskId, Json.obj(key, Json.obj("action", "decline")));
    JsonNode done = pollUntil(taskId, "completed");
    assertThat(done.path("result").path("content").get(0).path("text").asText()).isEqualTo("deployed");
    assertThat(done.path("result").path("structuredContent").path("inputResponses").path(key)).isEqualTo(answer);
    assertThat(done.has("inputRequests")).isFalse();
  }

  @Test
  void aTimedInputRoundResumesWithoutAnAnswer() {
    String taskId = createTask(Json.obj("inputRequiredMs", 20, "durationMs", 5));
    JsonNode done = pollUntil(taskId, "completed");
    assertThat(done.path("result").path("structuredContent").has("inputResponses")).isFalse();
  }

  @Test
  void anMrtrRoundPrecedesTheTask() {
    ObjectNode call = Json.obj("name", "work", "arguments", Json.obj("approveFirst", "Run the migration?",
        "durationMs", 5));
    JsonNode round = result("tools/call", Json.v2026(call, true));
    assertThat(round.path("resultType").asText()).isEqualTo("input_required");
    assertThat(round.has("taskId")).isFalse();
    assertThat(round.path("inputRequests").path("approve").path("params").path("message").asText())
        .isEqualTo("Run the migration?");
    String state = round.path("requestState").asText();
    assertThat(state).startsWith("approve-round-");

    ObjectNode forged = Json.v2026(call, true);
    forged.put("requestState", "forged");
    forged.set("inputResponses", Json.obj("approve", Json.obj("action", "accept")));
    assertThat(error("tools/call", forged).path("code").asInt()).isEqualTo(-32602);

    ObjectNode answer = Json.obj("action", "accept", "content", Json.obj("ok", true));
    ObjectNode retry = Json.v2026(call, true);
    retry.put("requestState", state);
    retry.set("inputResponses", Json.obj("approve", answer));
    JsonNode created = result("tools/call", retry);
    assertThat(created.path("resultType").asText()).isEqualTo("task");
    JsonNode done = pollUntil(created.path("taskId").asText(), "completed");
    assertThat(done.path("result").path("structuredContent").path("approval").path("approve")).isEqualTo(answer);
    // a state is good for one retry only
    assertThat(error("tools/call", retry).path("code").asInt()).isEqualTo(-32602);

    JsonNode again = result("tools/call", Json.v2026(call, true));
    ObjectNode decline = Json.v2026(call, true);
    decline.put("requestState", again.path("requestState").asText());
    decline.set("inputResponses", Json.obj("approve", Json.obj("action", "decline")));
    JsonNode declined = result("tools/call", decline);
    assertThat(declined.path("resultType").asText()).isEqualTo("complete");
    assertThat(declined.path("isError").asBoolean()).isTrue();
  }

  @Test
  void cancelIsAnEmptyAckAndTheTaskEndsCancelled() {
    String taskId = createTask(Json.obj("durationMs", 60_000));
    JsonNode ack = cancel(taskId);
    assertThat(ack.path("resultType").asText()).isEqualTo("complete");
    assertThat(ack.has("status")).isFalse();
    assertThat(taskGet(taskId).path("status").asText()).isEqualTo("cancelled");
    assertThat(cancel(taskId).path("resultType").asText()).isEqualTo("complete"); // terminal: still an ack
    assertThat(taskGet(taskId).path("status").asText()).isEqualTo("cancelled");
  }

  @Test
  void aCancelThatLosesTheRaceIsAckedAndTheTaskCompletes() {
    String taskId = createTask(Json.obj("durationMs", 50, "cancelIgnored", true, "result", "finished anyway"));
    assertThat(cancel(taskId).path("resultType").asText()).isEqualTo("complete");
    JsonNode done = pollUntil(taskId, "completed");
    assertThat(done.path("result").path("content").get(0).path("text").asText()).isEqualTo("finished anyway");
  }

  @Test
  void anUnknownTaskIsInvalidParams() {
    for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
      ObjectNode params = Json.v2026(Json.obj("taskId", "nope"), true);
      params.set("inputResponses", Json.obj());
      JsonNode error = error(method, params);
      assertThat(error.path("code").asInt()).as(method).isEqualTo(-32602);
      assertThat(error.path("message").asText()).as(method).isEqualTo("Failed to retrieve task: Task not found");
      expectHttpStatus(200);
    }
  }

  @Test
  void anExpiredTaskSaysSo() throws Exception {
    restart(v2026Options().withTtlOverrideMs(100L));
    String taskId = createTask(Json.obj("durationMs", 60_000));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    JsonNode response = send("tasks/get", Json.v2026(Json.taskId(taskId), true));
    while (response.has("result") && System.nanoTime() < deadline) {
      Thread.sleep(10);
      response = send("tasks/get", Json.v2026(Json.taskId(taskId), true));
    }
    for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
      ObjectNode params = Json.v2026(Json.taskId(taskId), true);
      params.set("inputResponses", Json.obj());
      JsonNode error = error(method, params);
      assertThat(error.path("code").asInt()).as(method).isEqualTo(-32602);
      assertThat(error.path("message").asText()).as(method).isEqualTo("Failed to retrieve task: Task has expired");
    }
  }

  @Test
  void aClientWithoutTheExtensionGetsNoTask() {
    JsonNode refused = error("tools/call", Json.v2026(Json.obj("name", "work", "arguments", Json.obj()), false));
    assertThat(refused.path("code").asInt()).isEqualTo(-32021);
    assertThat(refused.path("message").asText()).isEqualTo("Missing required client capability");
    assertThat(refused.path("data").toString())
        .isEqualTo("{\"requiredCapabilities\":{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}}}");
    expectHttpStatus(400);

    JsonNode inline = result("tools/call", Json.v2026(Json.obj("name", "work_optional", "arguments",
        Json.obj("durationMs", 5, "result", "plain")), false));
    assertThat(inline.path("resultType").asText()).isEqualTo("complete");
    assertThat(inline.path("content").get(0).path("text").asText()).isEqualTo("plain");
    JsonNode inlineFailure = error("tools/call", Json.v2026(Json.obj("name", "work_optional", "arguments",
        Json.obj("durationMs", 1, "fail", true, "failMessage", "boom")), false));
    assertThat(inlineFailure.path("message").asText()).isEqualTo("boom");

    String taskId = createTask(Json.obj("durationMs", 60_000));
    for (String method : List.of("tasks/get", "tasks/update", "tasks/cancel")) {
      ObjectNode params = Json.v2026(Json.taskId(taskId), false);
      params.set("inputResponses", Json.obj());
      assertThat(error(method, params).path("code").asInt()).as(method).isEqualTo(-32021);
      expectHttpStatus(400);
    }
  }

  @Test
  void removedMethodsAreUnknown() {
    String taskId = createTask(Json.obj("durationMs", 60_000));
    for (String method : List.of("tasks/result", "tasks/list", "resources/list")) {
      JsonNode error = error(method, Json.v2026(Json.taskId(taskId), true));
      assertThat(error.path("code").asInt()).as(method).isEqualTo(-32601);
      assertThat(error.path("message").asText()).isEqualTo("Method not found");
      expectHttpStatus(404);
    }
  }

  @Test
  void theScriptedControlCallBehavioursKeepWorkingIn2026Shapes() {
    String bogus = createTask(Json.obj("durationMs", 60_000, "malformed", true));
    assertThat(taskGet(bogus).path("status").asText()).isEqualTo("bogus");
    String noId = createTask(Json.obj("durationMs", 60_000, "malformed", "missingTaskId"));
    assertThat(taskGet(noId).has("taskId")).isFalse();
    assertThat(taskGet(noId).path("ttlMs").asLong()).isEqualTo(300_000);
    String text = createTask(Json.obj("durationMs", 60_000, "malformed", "notObject"));
    assertThat(taskGet(text).isTextual()).isTrue();

    String slow = createTask(Json.obj("durationMs", 60_000, "statusDelayMs", 60, "cancelDelayMs", 60));
    assertThat(taskGet(slow).path("status").asText()).isEqualTo("working");
    assertThat(cancel(slow).path("resultType").asText()).isEqualTo("complete");
    assertThat(server.controlCalls(slow)).extracting(ControlCall::method)
        .containsExactly("tools/call", "tasks/get", "tasks/cancel");
    assertThat(server.controlCalls(slow).subList(1, 3))
        .allSatisfy(call -> assertThat(call.endMs() - call.startMs()).isGreaterThanOrEqualTo(50));

    String big = createTask(Json.obj("durationMs", 1, "resultBytes", 100_000));
    assertThat(pollUntil(big, "completed").path("result").path("content").get(0).path("text").asText())
        .hasSize(100_000);
  }

  @Test
  void theEmbeddedResultCanBeBareAndTheContentQuirkOff() throws Exception {
    restart(v2026Options().withBareResult(true).withContentQuirk(false));
    JsonNode created = result("tools/call", Json.v2026(Json.obj("name", "work", "arguments",
        Json.obj("durationMs", 5)), true));
    assertThat(created.has("content")).isFalse();
    JsonNode done = pollUntil(created.path("taskId").asText(), "completed");
    assertThat(done.path("result").has("resultType")).isFalse();
    assertThat(done.path("result").path("content").get(0).path("text").asText()).isEqualTo("done");
  }

  // helpers

  JsonNode result(String method, ObjectNode params) {
    JsonNode response = send(method, params);
    if (!response.has("result")) {
      throw new AssertionError(method + " failed: " + response);
    }
    return response.get("result");
  }

  JsonNode error(String method, ObjectNode params) {
    JsonNode response = send(method, params);
    if (!response.has("error")) {
      throw new AssertionError(method + " did not fail: " + response);
    }
    return response.get("error");
  }

  String createTask(ObjectNode arguments) {
    JsonNode created = result("tools/call", Json.v2026(Json.obj("name", "work", "arguments", arguments), true));
    assertThat(created.path("resultType").asText()).isEqualTo("task");
    return created.path("taskId").asText();
  }

  JsonNode taskGet(String taskId) {
    return result("tasks/get", Json.v2026(Json.taskId(taskId), true));
  }

  JsonNode update(String taskId, ObjectNode responses) {
    ObjectNode params = Json.v2026(Json.taskId(taskId), true);
    params.set("inputResponses", responses);
    return result("tasks/update", params);
  }

  JsonNode cancel(String taskId) {
    return result("tasks/cancel", Json.v2026(Json.taskId(taskId), true));
  }

  /** Polls tasks/get until the task is {@code status} (failing on another terminal status), for up to 10 s. */
  JsonNode pollUntil(String taskId, String status) {
    Predicate<String> terminal = s -> s.equals("completed") || s.equals("failed") || s.equals("cancelled");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    JsonNode task = taskGet(taskId);
    while (!task.path("status").asText().equals(status)) {
      if (terminal.test(task.path("status").asText()) || System.nanoTime() > deadline) {
        throw new AssertionError("expected " + status + " but got " + task);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      task = taskGet(taskId);
    }
    return task;
  }
}
