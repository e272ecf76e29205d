package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Streamable HTTP: sessions, SSE and JSON answers, the GET stream, status codes and task visibility. */
class HttpTransportTest {
  private ReferenceServer server;

  private HttpTestClient start(ReferenceServerOptions options) {
    server = new ReferenceServer(options);
    return new HttpTestClient(server.startHttp(0));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void initializeOpensASessionAndAnswersWithAPrimedSseStream() {
    HttpTestClient client = start(ReferenceServerOptions.defaults());
    assertThat(client.uri.toString()).startsWith("http://127.0.0.1:").endsWith("/mcp");
    HttpResponse<String> response = client.post(client.request("initialize",
        Json.obj("protocolVersion", "2025-11-25")).toString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).contains("text/event-stream");
    assertThat(response.headers().firstValue("Mcp-Session-Id")).hasValueSatisfying(id -> assertThat(id)
        .matches("[\\x21-\\x7e]+"));
    String[] events = response.body().split("\n\n");
    assertThat(events[0]).matches("id: \\S+\nretry: 1000\ndata: ");
    assertThat(events[1]).startsWith("event: message\nid: ");
    assertThat(HttpTestClient.message(response).path("result").path("protocolVersion").asText())
        .isEqualTo("2025-11-25");
  }

  @Test
  void jsonModeAnswersWithApplicationJson() {
    HttpTestClient client = start(ReferenceServerOptions.defaults().withJsonResponses(true));
    client.initialize();
    HttpResponse<String> response = client.post(client.request("ping", null).toString());
    assertThat(response.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(response.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
  }

  @Test
  void statusCodesFollowTheTransportRules() {
    HttpTestClient client = start(ReferenceServerOptions.defaults());
    String ping = client.request("ping", null).toString();
    HttpResponse<String> noSession = client.post(ping);
    assertThat(noSession.statusCode()).isEqualTo(400);

    client.initialize();
    HttpResponse<String> jsonOnly = client.send(client.postBuilder(ping).setHeader("Accept", "application/json")
        .build());
    assertThat(jsonOnly.statusCode()).isEqualTo(406);
    HttpResponse<String> badVersion = client.send(client.postBuilder(ping)
        .setHeader("MCP-Protocol-Version", "1999-01-01").build());
    assertThat(badVersion.statusCode()).isEqualTo(400);
    HttpResponse<String> evilOrigin = client.send(client.postBuilder(ping).header("Origin", "http://evil.example")
        .build());
    assertThat(evilOrigin.statusCode()).isEqualTo(403);
    HttpResponse<String> localOrigin = client.send(client.postBuilder(ping)
        .header("Origin", "http://localhost:3000").build());
    assertThat(localOrigin.statusCode()).isEqualTo(200);
    HttpResponse<String> notification = client.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
        + "\"params\":{\"requestId\":1}}");
    assertThat(notification.statusCode()).isEqualTo(202);
    assertThat(notification.body()).isEmpty();
    HttpResponse<String> clientResponse = client.post("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}");
    assertThat(clientResponse.statusCode()).isEqualTo(202);

    String live = client.sessionId;
    client.sessionId = "unknown-session";
    assertThat(client.post(ping).statusCode()).isEqualTo(404);
    client.sessionId = live;
    HttpResponse<String> delete = client.send(HttpRequest.newBuilder(client.uri)
        .header("Mcp-Session-Id", live).DELETE().build());
    assertThat(delete.statusCode()).isEqualTo(200);
    HttpResponse<String> afterDelete = client.post(ping);
    assertThat(afterDelete.statusCode()).isEqualTo(404);
    assertThat(afterDelete.body()).contains("-32001");
  }

  @Test
  void statusNotificationsGoToTheGetStream() throws Exception {
    HttpTestClient client = start(ReferenceServerOptions.defaults());
    client.initialize();
    HttpResponse<Stream<String>> stream = client.http.send(HttpRequest.newBuilder(client.uri)
        .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId).GET().build(),
        HttpResponse.BodyHandlers.ofLines());
    assertThat(stream.statusCode()).isEqualTo(200);
    HttpResponse<String> second = client.send(HttpRequest.newBuilder(client.uri)
        .header("Accept", "text/event-stream").header("Mcp-Session-Id", client.sessionId).GET().build());
    assertThat(second.statusCode()).isEqualTo(409);
    CompletableFuture<List<String>> statuses = CompletableFuture.supplyAsync(() -> stream.body()
        .filter(line -> line.startsWith("data: {"))
        .map(line -> parse(line.substring(6)).path("params").path("status").asText())
        .takeWhile(status -> !status.equals("completed"))
        .toList());
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 5), 0L))
        .path("task").path("taskId").asText();
    client.result("tasks/result", Json.taskId(taskId));
    assertThat(statuses.get(10, TimeUnit.SECONDS)).containsExactly("working");
    stream.body().close();
  }

  @Test
  void getStreamCanBeSwitchedOff() {
    HttpTestClient client = start(ReferenceServerOptions.defaults().withGetStream(false));
    client.initialize();
    HttpResponse<String> get = client.send(HttpRequest.newBuilder(client.uri).header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", client.sessionId).GET().build());
    assertThat(get.statusCode()).isEqualTo(405);
  }

  @Test
  void sessionScopedTasksAreInvisibleToOtherSessions() {
    HttpTestClient owner = start(ReferenceServerOptions.defaults().withSessionScoped(true));
    owner.initialize();
    HttpTestClient other = new HttpTestClient(owner.uri);
    other.initialize();
    String taskId = owner.result("tools/call", Json.call("work", Json.obj("durationMs", 1), 0L))
        .path("task").path("taskId").asText();
    JsonNode error = other.call("tasks/get", Json.taskId(taskId)).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
    assertThat(error.path("message").asText()).contains("Task not found");
    assertThat(other.result("tasks/list", Json.obj()).path("tasks")).isEmpty();
    assertThat(owner.result("tasks/result", Json.taskId(taskId)).path("content").get(0).path("text").asText())
        .isEqualTo("done");
  }

  @Test
  void sharedTasksSurviveTheirSessionAndRecordEveryPoller() {
    HttpTestClient owner = start(ReferenceServerOptions.defaults());
    owner.initialize();
    String taskId = owner.result("tools/call", Json.call("work", Json.obj("durationMs", 1, "result", "ok"), 0L))
        .path("task").path("taskId").asText();
    owner.result("tasks/get", Json.taskId(taskId));
    owner.send(HttpRequest.newBuilder(owner.uri).header("Mcp-Session-Id", owner.sessionId).DELETE().build());

    HttpTestClient successor = new HttpTestClient(owner.uri);
    successor.initialize();
    assertThat(successor.result("tasks/result", Json.taskId(taskId)).path("content").get(0).path("text").asText())
        .isEqualTo("ok");

    JsonNode stats = successor.result("tools/call", Json.call("stats", Json.obj("taskId", taskId), null))
        .path("structuredContent").path("tasks").path(taskId);
    List<JsonNode> calls = new ArrayList<>();
    stats.path("calls").forEach(calls::add);
    assertThat(calls).extracting(call -> call.path("method").asText())
        .containsExactly("tools/call", "tasks/get", "tasks/result");
    assertThat(calls).extracting(call -> call.path("sessionId").asText())
        .containsExactly(owner.sessionId, owner.sessionId, successor.sessionId);
    assertThat(stats.path("maxConcurrent").asInt()).isEqualTo(1);
    assertThat(server.controlCalls(taskId)).hasSize(3)
        .allSatisfy(call -> assertThat(call.endMs()).isGreaterThanOrEqualTo(call.startMs()));
  }

  @Test
  void hangingStatusTimesOutOnTheClientAndStaysOpenInStats() {
    HttpTestClient client = start(ReferenceServerOptions.defaults().withJsonResponses(true));
    client.initialize();
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000,
        "statusHang", true), 0L)).path("task").path("taskId").asText();
    HttpRequest get = client.postBuilder(client.request("tasks/get", Json.taskId(taskId)).toString())
        .timeout(Duration.ofMillis(200)).build();
    assertThatThrownBy(() -> client.http.send(get, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    List<ControlCall> calls = server.controlCalls(taskId);
    assertThat(calls).extracting(ControlCall::method).containsExactly("tools/call", "tasks/get");
    assertThat(calls.get(1).endMs()).as("the hanging tasks/get is never answered").isNull();
    JsonNode cancelled = client.result("tasks/cancel", Json.taskId(taskId));
    assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
  }

  @Test
  void hangingSseAnswerSendsOnlyThePrimingEvent() {
    HttpTestClient client = start(ReferenceServerOptions.defaults());
    client.initialize();
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000,
        "cancelHang", true), 0L)).path("task").path("taskId").asText();
    CompletableFuture<JsonNode> cancel = client.callAsync("tasks/cancel", Json.taskId(taskId));
    assertThatThrownBy(() -> cancel.get(200, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
    cancel.cancel(true);
    assertThat(client.result("tasks/get", Json.taskId(taskId)).path("status").asText()).isEqualTo("working");
  }

  @Test
  void delayedAnswersAreRecordedWithTheirDuration() {
    HttpTestClient client = start(ReferenceServerOptions.defaults());
    client.initialize();
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000,
        "statusDelayMs", 50, "cancelDelayMs", 50), 0L)).path("task").path("taskId").asText();
    assertThat(client.result("tasks/get", Json.taskId(taskId)).path("status").asText()).isEqualTo("working");
    assertThat(client.result("tasks/cancel", Json.taskId(taskId)).path("status").asText()).isEqualTo("cancelled");
    List<ControlCall> calls = server.controlCalls(taskId);
    assertThat(calls).extracting(ControlCall::method).containsExactly("tools/call", "tasks/get", "tasks/cancel");
    assertThat(calls.subList(1, 3)).allSatisfy(call -> assertThat(call.endMs() - call.startMs())
        .isGreaterThanOrEqualTo(50));
    assertThat(calls.get(1).overlaps(calls.get(2))).isFalse();
  }

  @Test
  void manySessionsRunManyTasksConcurrently() {
    HttpTestClient first = start(ReferenceServerOptions.defaults().withSessionScoped(true));
    ExecutorService sessions = Executors.newFixedThreadPool(10);
    try {
      List<CompletableFuture<String>> results = IntStream.range(0, 10)
          .mapToObj(session -> CompletableFuture.supplyAsync(() -> runSession(first.uri, session), sessions))
          .toList();
      for (int session = 0; session < 10; session++) {
        assertThat(HttpTestClient.await(results.get(session)))
            .isEqualTo(String.format("%1$d-0 %1$d-1 %1$d-2 %1$d-3", session));
      }
    } finally {
      sessions.shutdownNow();
    }
  }

  /** One session creating four tasks and then collecting their results in order. */
  private static String runSession(URI uri, int session) {
    HttpTestClient client = new HttpTestClient(uri);
    client.initialize();
    List<String> ids = IntStream.range(0, 4)
        .mapToObj(i -> client.result("tools/call", Json.call("work", Json.obj("durationMs", 20,
            "result", session + "-" + i), 0L)).path("task").path("taskId").asText())
        .toList();
    StringBuilder texts = new StringBuilder();
    for (String id : ids) {
      texts.append(client.result("tasks/result", Json.taskId(id)).path("content").get(0).path("text").asText())
          .append(' ');
    }
    return texts.toString().strip();
  }

  private static JsonNode parse(String json) {
    try {
      return StdioTestClient.MAPPER.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
