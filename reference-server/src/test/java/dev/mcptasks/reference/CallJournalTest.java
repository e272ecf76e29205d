package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --call-log}: the durable journal of sessions, creations, control calls and task ends; slow create answers. */
class CallJournalTest {
  @TempDir
  Path dir;

  private ReferenceServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpTestClient client(String tag) {
    HttpTestClient client = new HttpTestClient(server.httpUri());
    client.clientTag = tag;
    client.initialize();
    return client;
  }

  @Test
  void journalsSessionsCreationsControlCallsAndTaskEnds() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true).withCallLog(log));
    server.startHttp(0);
    HttpTestClient worker = client("worker-1");

    String done = worker.result("tools/call", Json.call("work", Json.obj("durationMs", 0, "result", "r-1",
        "key", "k1"), 0L)).path("task").path("taskId").asText();
    String cancelled = worker.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000, "key", "k2"), 0L))
        .path("task").path("taskId").asText();
    worker.result("tasks/result", Json.taskId(done));
    assertThat(worker.result("tasks/cancel", Json.taskId(cancelled)).path("status").asText()).isEqualTo("cancelled");
    JsonNode refused = worker.call("tasks/cancel", Json.taskId(done));
    assertThat(refused.has("error")).isTrue();
    server.close();
    server = null;

    List<JsonNode> lines = read(log);
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("session"))
        .singleElement().satisfies(line -> {
          assertThat(line.path("client").asText()).isEqualTo("worker-1");
          assertThat(line.path("session").asText()).isEqualTo(worker.sessionId);
        });
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("create"))
        .extracting(line -> line.path("task").asText() + " " + line.path("arguments").path("key").asText()
            + " " + line.path("session").asText())
        .containsExactly(done + " k1 " + worker.sessionId, cancelled + " k2 " + worker.sessionId);
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("terminal"))
        .extracting(line -> line.path("task").asText() + " " + line.path("status").asText() + " "
            + line.path("result").path("content").path(0).path("text").asText(""))
        .containsExactlyInAnyOrder(done + " completed r-1", cancelled + " cancelled ");
    List<String> calls = new ArrayList<>();
    for (JsonNode line : lines) {
      if (line.path("e").asText().equals("begin")) {
        JsonNode end = lines.stream().filter(other -> other.path("e").asText().equals("end")
            && other.path("call").asLong() == line.path("call").asLong()).findFirst().orElseThrow();
        assertThat(end.path("t").asLong()).isGreaterThanOrEqualTo(line.path("t").asLong());
        calls.add(line.path("method").asText() + " " + (line.path("task").asText().equals(done) ? "done" : "other")
            + " " + end.path("status").asText(end.has("error") ? "error" : "ok"));
      }
    }
    assertThat(calls).containsExactly("tools/call done working", "tools/call other working",
        "tasks/result done ok", "tasks/cancel other cancelled", "tasks/cancel done error");
    // every call was answered before its connection closed (at the server's close)
    assertThat(lines).noneMatch(line -> line.path("e").asText().equals("abandon"));
  }

  @Test
  void aCallInASessionAnotherClientOpenedNamesTheClientThatMadeIt() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true).withCallLog(log));
    server.startHttp(0);
    HttpTestClient creator = client("creator");
    String task = creator.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 0L))
        .path("task").path("taskId").asText();
    // another worker takes the task over in the creator's session, as one does for a session-bound server
    HttpTestClient taker = new HttpTestClient(server.httpUri());
    taker.clientTag = "taker";
    taker.sessionId = creator.sessionId;
    assertThat(taker.result("tasks/get", Json.taskId(task)).path("status").asText()).isEqualTo("working");
    server.close();
    server = null;

    assertThat(read(log)).filteredOn(line -> line.path("e").asText().equals("begin"))
        .extracting(line -> line.path("method").asText() + " " + line.path("session").asText() + " "
            + line.path("client").asText())
        .containsExactly("tools/call " + creator.sessionId + " creator",
            "tasks/get " + creator.sessionId + " taker");
  }

  @Test
  void aCallWhoseClientClosesTheConnectionBeforeTheAnswerIsJournaledAsAbandonedAndStillEnds() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true).withCallLog(log));
    server.startHttp(0);
    HttpTestClient worker = client("worker");
    String slow = worker.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000,
        "statusDelayMs", 1_500), 0L)).path("task").path("taskId").asText();

    String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"" + slow + "\"}}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    long closedAt;
    try (Socket socket = new Socket("127.0.0.1", server.httpUri().getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " + worker.sessionId + "\r\n"
          + "MCP-Protocol-Version: 2025-11-25\r\nContent-Length: " + bytes.length + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      awaitLine(log, "\"e\":\"begin\"", "\"tasks/get\"");
      closedAt = System.currentTimeMillis();
    }
    JsonNode abandon = StdioTestClient.MAPPER.readTree(awaitLine(log, "\"e\":\"abandon\""));
    // the server keeps working on the abandoned call: its end is journaled when the delay has passed
    JsonNode end = StdioTestClient.MAPPER.readTree(awaitLine(log, "\"e\":\"end\"", "\"working\"",
        "\"call\":" + abandon.path("call").asLong() + ","));

    List<JsonNode> lines = read(log);
    JsonNode begin = lines.stream().filter(line -> line.path("e").asText().equals("begin")
        && line.path("method").asText().equals("tasks/get")).findFirst().orElseThrow();
    assertThat(abandon.path("call").asLong()).isEqualTo(begin.path("call").asLong());
    assertThat(abandon.path("t").asLong()).isGreaterThanOrEqualTo(closedAt - 5)
        .isLessThan(end.path("t").asLong());
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("abandon")).hasSize(1);
  }

  @Test
  void aSlowCreateAnswerLeavesTheTaskCreatedAndRunningWhileTheClientWaits() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true).withCallLog(log));
    server.startHttp(0);
    HttpTestClient creator = client("creator");
    HttpTestClient observer = client("observer");

    CompletableFuture<JsonNode> answer = creator.callAsync("tools/call",
        Json.call("work", Json.obj("durationMs", 0, "createDelayMs", 30_000), 0L));
    String taskId = awaitCreateCall(log);
    assertThat(read(log)).filteredOn(line -> line.path("e").asText().equals("create"))
        .extracting(line -> line.path("task").asText()).containsExactly(taskId);
    assertThat(observer.result("tasks/list", Json.obj()).path("tasks")).singleElement()
        .satisfies(task -> assertThat(task.path("taskId").asText()).isEqualTo(taskId));
    assertThat(answer).isNotDone();
    assertThat(server.controlCalls(taskId)).singleElement()
        .satisfies(call -> assertThat(call.endMs()).isNull());
  }

  @Test
  void journals2026CallsAndAnswersInTheSameLineShapeWithTheirGeneration() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    server = new ReferenceServer(ReferenceServerOptions.defaults().withGeneration(ServedGenerations.V2026_07_28)
        .withCallLog(log));
    HttpTestClient worker = new HttpTestClient(server.startHttp(0));
    worker.clientTag = "worker-2";
    JsonNode created = HttpTestClient.body(worker.post2026("tools/call", Json.v2026(Json.obj("name", "work",
        "arguments", Json.obj("askInput", "Go?", "durationMs", 0, "key", "k3")), true))).path("result");
    String taskId = created.path("taskId").asText();
    JsonNode waiting = HttpTestClient.body(worker.post2026("tasks/get", Json.v2026(Json.taskId(taskId), true)))
        .path("result");
    String key = waiting.path("inputRequests").fieldNames().next();
    ObjectNode update = Json.v2026(Json.taskId(taskId), true);
    update.set("inputResponses", Json.obj(key, Json.obj("action", "accept"), "stale", Json.obj("action", "accept")));
    assertThat(worker.post2026("tasks/update", update).statusCode()).isEqualTo(200);
    awaitLine(log, "\"e\":\"terminal\"", taskId);
    assertThat(worker.post2026("tasks/cancel", Json.v2026(Json.taskId(taskId), true)).statusCode())
        .isEqualTo(200);
    server.close();
    server = null;

    List<JsonNode> lines = read(log);
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("create")).singleElement()
        .satisfies(line -> {
          assertThat(line.path("task").asText()).isEqualTo(taskId);
          assertThat(line.path("kind").asText()).isEqualTo("extension_task");
          assertThat(line.path("generation").asText()).isEqualTo("2026-07-28");
          assertThat(line.path("session").asText()).isEqualTo("2026:worker-2");
          assertThat(line.path("arguments").path("key").asText()).isEqualTo("k3");
        });
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("begin"))
        .extracting(line -> line.path("method").asText() + " " + line.path("generation").asText())
        .containsExactly("tools/call 2026-07-28", "tasks/get 2026-07-28", "tasks/update 2026-07-28",
            "tasks/cancel 2026-07-28");
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("end"))
        .extracting(line -> line.path("status").asText("-") + " " + line.path("task").asText("-"))
        .containsExactly("input_required " + taskId, "input_required -", "- -", "- -");
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("answer"))
        .extracting(line -> line.path("key").asText() + " " + line.path("accepted").asBoolean() + " "
            + line.path("response").path("action").asText())
        .containsExactly(key + " true accept", "stale false accept");
    assertThat(lines).filteredOn(line -> line.path("e").asText().equals("terminal")).singleElement()
        .satisfies(line -> assertThat(line.path("result").path("structuredContent").path("inputResponses")
            .path(key).path("action").asText()).isEqualTo("accept"));
  }

  @Test
  void withoutACallLogNothingIsWritten() {
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true));
    server.startHttp(0);
    HttpTestClient worker = client("worker");
    worker.result("tools/call", Json.call("work", Json.obj("durationMs", 0), 0L));
    assertThat(dir).isEmptyDirectory();
  }

  /**
   * The task id of the first create call journaled: its begin line follows the creation line and the call's entry in
   * the in-memory control-call log.
   */
  private static String awaitCreateCall(Path log) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        for (String text : Files.readAllLines(log)) {
          // the last line may still be being written
          if (text.endsWith("}") && text.contains("\"e\":\"begin\"") && text.contains("\"tools/call\"")) {
            return StdioTestClient.MAPPER.readTree(text).path("task").asText();
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no creation was journaled");
  }

  /** The first complete journal line containing every one of {@code parts}, awaited for up to 10 s. */
  private static String awaitLine(Path log, String... parts) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (Files.exists(log)) {
        for (String text : Files.readAllLines(log)) {
          if (text.endsWith("}") && java.util.Arrays.stream(parts).allMatch(text::contains)) {
            return text;
          }
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no journal line with " + List.of(parts));
  }

  private static List<JsonNode> read(Path log) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(log)) {
      lines.add(StdioTestClient.MAPPER.readTree(line));
    }
    return lines;
  }
}
