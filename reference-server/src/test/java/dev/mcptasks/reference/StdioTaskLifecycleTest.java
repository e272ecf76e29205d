package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The task lifecycle over stdio: create, get, result, failure, cancellation and the error answers. */
class StdioTaskLifecycleTest {
  private ReferenceServer server;
  private StdioTestClient client;

  @BeforeEach
  void start() throws Exception {
    server = new ReferenceServer(ReferenceServerOptions.defaults());
    client = new StdioTestClient(server);
    client.initialize();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void initializeEchoesAKnownVersionAndAdvertisesTasks() {
    JsonNode result = client.result("initialize", Json.obj("protocolVersion", "2025-06-18"));
    assertThat(result.path("protocolVersion").asText()).isEqualTo("2025-06-18");
    assertThat(result.path("capabilities").path("tools").path("listChanged").asBoolean()).isTrue();
    assertThat(result.path("capabilities").path("tasks").toString())
        .isEqualTo("{\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}}");
    JsonNode unknown = client.result("initialize", Json.obj("protocolVersion", "1999-01-01"));
    assertThat(unknown.path("protocolVersion").asText()).isEqualTo("2025-11-25");
    assertThat(client.result("ping", null).isEmpty()).isTrue();
  }

  @Test
  void toolsListDeclaresTaskSupport() {
    JsonNode tools = client.result("tools/list", Json.obj()).path("tools");
    assertThat(tools.findValuesAsText("name"))
        .containsExactly("work", "work_optional", "echo", "submit_job", "job_status", "cancel_job", "stats",
            "slow_plain");
    assertThat(tools.get(0).path("execution").path("taskSupport").asText()).isEqualTo("required");
    assertThat(tools.get(1).path("execution").path("taskSupport").asText()).isEqualTo("optional");
    assertThat(tools.get(2).has("execution")).isFalse();
    assertThat(tools.get(0).path("inputSchema").path("properties").path("malformed").path("type").toString())
        .isEqualTo("[\"boolean\",\"string\"]");
  }

  @Test
  void createGetResultWithStatusNotificationBeforeTheCreateResponse() {
    JsonNode created = client.result("tools/call",
        Json.call("work", Json.obj("durationMs", 30, "result", "hello"), 60_000L)).path("task");
    String taskId = created.path("taskId").asText();
    assertThat(taskId).hasSize(32);
    assertThat(created.path("status").asText()).isEqualTo("working");
    assertThat(created.path("ttl").asLong()).isEqualTo(60_000);
    assertThat(created.path("pollInterval").asLong()).isEqualTo(500);
    assertThat(created.path("createdAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{3})?Z");
    assertThat(created.has("lastUpdatedAt")).isTrue();
    int notificationIndex = indexOf(m -> "notifications/tasks/status".equals(m.path("method").asText())
        && taskId.equals(m.path("params").path("taskId").asText()));
    int responseIndex = indexOf(m -> m.path("result").path("task").path("taskId").asText().equals(taskId));
    assertThat(notificationIndex).isNotNegative().isLessThan(responseIndex);

    JsonNode result = client.result("tasks/result", Json.taskId(taskId));
    assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("hello");
    assertThat(result.path("isError").asBoolean()).isFalse();
    assertThat(result.path("_meta").path("io.modelcontextprotocol/related-task").path("taskId").asText())
        .isEqualTo(taskId);
    assertThat(client.result("tasks/result", Json.taskId(taskId))).isEqualTo(result);

    JsonNode task = client.result("tasks/get", Json.taskId(taskId));
    assertThat(task.path("status").asText()).isEqualTo("completed");
    assertThat(task.has("_meta")).isFalse();
  }

  @Test
  void failedTaskReturnsTheIsErrorResult() {
    String taskId = create(Json.obj("durationMs", 5, "fail", true, "failMessage", "upstream 503"));
    JsonNode result = client.result("tasks/result", Json.taskId(taskId));
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("upstream 503");
    JsonNode task = client.result("tasks/get", Json.taskId(taskId));
    assertThat(task.path("status").asText()).isEqualTo("failed");
    assertThat(task.path("statusMessage").asText()).isEqualTo("upstream 503");
  }

  @Test
  void cancelEndsAWaitingResultAndASecondCancelIsRefused() {
    String taskId = create(Json.obj("durationMs", 60_000));
    CompletableFuture<JsonNode> waiting = client.send("tasks/result", Json.taskId(taskId));
    JsonNode cancelled = client.result("tasks/cancel", Json.taskId(taskId));
    assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
    assertThat(cancelled.path("taskId").asText()).isEqualTo(taskId);
    assertThat(cancelled.path("_meta").isObject()).isTrue();

    JsonNode error = StdioTestClient.await(waiting).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32603);
    assertThat(error.path("message").asText()).isEqualTo("Task " + taskId + " has no result stored");
    JsonNode again = client.request("tasks/cancel", Json.taskId(taskId)).path("error");
    assertThat(again.path("code").asInt()).isEqualTo(-32602);
    assertThat(again.path("message").asText()).isEqualTo("Cannot cancel task in terminal status: cancelled");
    assertThat(client.result("tasks/get", Json.taskId(taskId)).path("status").asText()).isEqualTo("cancelled");
  }

  @Test
  void cancellingACompletedTaskIsRefused() {
    String taskId = create(Json.obj("durationMs", 1));
    client.result("tasks/result", Json.taskId(taskId));
    JsonNode error = client.request("tasks/cancel", Json.taskId(taskId)).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("message").asText()).isEqualTo("Cannot cancel task in terminal status: completed");
  }

  @Test
  void unknownTaskAndUnknownMethodAreErrors() {
    for (String method : List.of("tasks/get", "tasks/result", "tasks/cancel")) {
      JsonNode error = client.request(method, Json.taskId("nope")).path("error");
      assertThat(error.path("code").asInt()).as(method).isEqualTo(-32602);
      assertThat(error.path("message").asText()).as(method).contains("Task not found");
    }
    JsonNode missing = client.request("tasks/get", Json.obj()).path("error");
    assertThat(missing.path("code").asInt()).isEqualTo(-32602);
    assertThat(missing.path("message").asText()).contains("taskId");
    JsonNode unknown = client.request("resources/list", Json.obj()).path("error");
    assertThat(unknown.path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void unparseableLineGetsAParseError() {
    CompletableFuture<JsonNode> error = client.whenReceived(m -> m.path("error").path("code").asInt() == -32700);
    client.writeLine("{not json");
    assertThat(StdioTestClient.await(error).path("id").isNull()).isTrue();
    assertThat(client.result("ping", null).isEmpty()).isTrue();
  }

  @Test
  void inputRequiredIsVisibleAtOnceAndThenResolves() {
    String stuck = create(Json.obj("inputRequiredMs", 60_000));
    assertThat(client.result("tasks/get", Json.taskId(stuck)).path("status").asText()).isEqualTo("input_required");

    String taskId = create(Json.obj("inputRequiredMs", 20, "durationMs", 5));
    client.result("tasks/result", Json.taskId(taskId));
    List<String> statuses = client.received.stream()
        .filter(m -> taskId.equals(m.path("params").path("taskId").asText()))
        .map(m -> m.path("params").path("status").asText())
        .toList();
    assertThat(statuses).containsExactly("working", "input_required", "working", "completed");
  }

  @Test
  void hugeResultArrivesWhole() {
    String taskId = create(Json.obj("durationMs", 1, "resultBytes", 5_000_000));
    JsonNode result = client.result("tasks/result", Json.taskId(taskId));
    assertThat(result.path("content").get(0).path("text").asText()).hasSize(5_000_000);
  }

  @Test
  void malformedStatusAnswers() {
    String bogus = create(Json.obj("durationMs", 60_000, "malformed", true));
    assertThat(client.result("tasks/get", Json.taskId(bogus)).path("status").asText()).isEqualTo("bogus");
    String noId = create(Json.obj("durationMs", 60_000, "malformed", "missingTaskId"));
    assertThat(client.result("tasks/get", Json.taskId(noId)).has("taskId")).isFalse();
    String text = create(Json.obj("durationMs", 60_000, "malformed", "notObject"));
    assertThat(client.result("tasks/get", Json.taskId(text)).isTextual()).isTrue();
    JsonNode invalid = client.request("tools/call", Json.call("work", Json.obj("malformed", "weird"), 0L));
    assertThat(invalid.path("error").path("message").asText()).contains("malformed");
  }

  @Test
  void taskSupportMisuseMimicsTheSdk() {
    JsonNode forbidden = client.request("tools/call", Json.call("echo", Json.obj("text", "x"), 1000L));
    assertThat(forbidden.path("error").path("code").asInt()).isEqualTo(-32602);
    JsonNode required = client.result("tools/call", Json.call("work", Json.obj(), null));
    assertThat(required.path("isError").asBoolean()).isTrue();
    assertThat(required.path("content").get(0).path("text").asText())
        .isEqualTo("MCP error -32601: Tool work requires task augmentation (taskSupport: 'required')");
    JsonNode echo = client.result("tools/call", Json.call("echo", Json.obj("text", "hi"), null));
    assertThat(echo.path("content").get(0).path("text").asText()).isEqualTo("hi");
    JsonNode optional = client.result("tools/call", Json.call("work_optional", Json.obj("durationMs", 1,
        "result", "plain"), null));
    assertThat(optional.path("content").get(0).path("text").asText()).isEqualTo("plain");
  }

  @Test
  void strictTaskSupportAnswersMethodNotFound() throws Exception {
    try (ReferenceServer strict = new ReferenceServer(ReferenceServerOptions.defaults().withStrictTaskSupport(true));
         StdioTestClient strictClient = new StdioTestClient(strict)) {
      strictClient.initialize();
      assertThat(strictClient.request("tools/call", Json.call("echo", Json.obj(), 1000L))
          .path("error").path("code").asInt()).isEqualTo(-32601);
      assertThat(strictClient.request("tools/call", Json.call("work", Json.obj(), null))
          .path("error").path("code").asInt()).isEqualTo(-32601);
    }
  }

  @Test
  void ttlIsHonouredOrOverridden() throws Exception {
    assertThat(client.result("tools/call", Json.call("work", Json.obj(), 0L)).path("task").path("ttl").asLong())
        .isEqualTo(300_000);
    assertThat(client.result("tools/call", Json.call("work", Json.obj(), 36_000_000L)).path("task").path("ttl")
        .asLong()).isEqualTo(3_600_000);
    try (ReferenceServer fixed = new ReferenceServer(ReferenceServerOptions.defaults().withTtlOverrideMs(1234L));
         StdioTestClient fixedClient = new StdioTestClient(fixed)) {
      fixedClient.initialize();
      JsonNode task = fixedClient.result("tools/call", Json.call("work", Json.obj(), 60_000L)).path("task");
      assertThat(task.path("ttl").asLong()).isEqualTo(1234);
    }
  }

  @Test
  void expiredTaskIsForgottenAndItsWaitingResultAnswersNotFound() {
    // The ttl leaves ample time for tasks/result to arrive before expiry even on a loaded machine, so that the
    // answer comes from the waiting path (checked through the recorded calls below).
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 1000L))
        .path("task").path("taskId").asText();
    JsonNode error = client.request("tasks/result", Json.taskId(taskId)).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("message").asText()).isEqualTo("Task not found: " + taskId);
    assertThat(client.request("tasks/get", Json.taskId(taskId)).path("error").path("message").asText())
        .isEqualTo("Failed to retrieve task: Task not found");
    assertThat(server.controlCalls(taskId)).extracting(ControlCall::method).containsExactly("tools/call",
        "tasks/result");
  }

  @Test
  void tasksListPagesThroughVisibleTasks() throws Exception {
    try (ReferenceServer paged = new ReferenceServer(ReferenceServerOptions.defaults().withListPageSize(2));
         StdioTestClient pagedClient = new StdioTestClient(paged)) {
      pagedClient.initialize();
      for (int i = 0; i < 3; i++) {
        pagedClient.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 0L));
      }
      JsonNode first = pagedClient.result("tasks/list", Json.obj());
      assertThat(first.path("tasks")).hasSize(2);
      JsonNode second = pagedClient.result("tasks/list", Json.obj("cursor", first.path("nextCursor").asText()));
      assertThat(second.path("tasks")).hasSize(1);
      assertThat(second.has("nextCursor")).isFalse();
      JsonNode bad = pagedClient.request("tasks/list", Json.obj("cursor", "!!")).path("error");
      assertThat(bad.path("code").asInt()).isEqualTo(-32602);
    }
  }

  private String create(ObjectNode arguments) {
    return client.result("tools/call", Json.call("work", arguments, 60_000L)).path("task").path("taskId").asText();
  }

  private int indexOf(Predicate<JsonNode> match) {
    List<JsonNode> messages = client.received;
    for (int i = 0; i < messages.size(); i++) {
      if (match.test(messages.get(i))) {
        return i;
      }
    }
    return -1;
  }
}
