package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strict ids route answers by request id within a session, as the TypeScript SDK's server does: a request reusing
 * the id of one in flight receives that one's answer, which never gets its own; every reuse is journaled.
 */
class StrictIdsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private ReferenceServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  /** A strict server journaling to {@code log}, and an initialized client of it. */
  private HttpTestClient strictServer(Path log) {
    server = new ReferenceServer(ReferenceServerOptions.defaults().withJsonResponses(true).withStrictIds(true)
        .withCallLog(log));
    HttpTestClient client = new HttpTestClient(server.startHttp(0));
    client.initialize();
    return client;
  }

  @Test
  void aReusedIdInFlightTakesTheEarlierAnswerAndIsJournaled() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    HttpTestClient client = strictServer(log);

    CompletableFuture<HttpResponse<String>> first = client.http.sendAsync(client.postBuilder(
        slowCall("7", 300, "answer of A")).build(), HttpResponse.BodyHandlers.ofString());
    awaitInFlight(client.sessionId, 1);
    CompletableFuture<HttpResponse<String>> second = client.http.sendAsync(client.postBuilder(
        slowCall("7", 60_000, "answer of B")).build(), HttpResponse.BodyHandlers.ofString());

    JsonNode delivered = HttpTestClient.message(second.get(10, TimeUnit.SECONDS));
    assertThat(delivered.path("result").path("content").get(0).path("text").asText())
        .as("B receives A's answer").isEqualTo("answer of A");
    assertThat(first).as("A never gets one").isNotDone();

    List<JsonNode> reused = Files.readAllLines(log).stream().map(StrictIdsTest::parse)
        .filter(line -> "reused_id".equals(line.path("e").asText())).toList();
    assertThat(reused).singleElement().satisfies(line -> {
      assertThat(line.path("session").asText()).isEqualTo(client.sessionId);
      assertThat(line.path("id").asText()).isEqualTo("\"7\"");
      assertThat(line.path("in_flight").asBoolean()).isTrue();
    });
  }

  @Test
  void distinctIdsAreAnsweredEachWithItsOwnAndNothingIsJournaled() throws Exception {
    Path log = dir.resolve("calls.jsonl");
    HttpTestClient client = strictServer(log);

    CompletableFuture<HttpResponse<String>> first = client.http.sendAsync(client.postBuilder(
        slowCall("p-1", 200, "A")).build(), HttpResponse.BodyHandlers.ofString());
    CompletableFuture<HttpResponse<String>> second = client.http.sendAsync(client.postBuilder(
        slowCall("p-2", 0, "B")).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(text(first.get(10, TimeUnit.SECONDS))).isEqualTo("A");
    assertThat(text(second.get(10, TimeUnit.SECONDS))).isEqualTo("B");
    assertThat(Files.readString(log)).doesNotContain("reused_id");
  }

  private static String slowCall(String id, int durationMs, String result) {
    ObjectNode message = Json.obj("jsonrpc", "2.0", "method", "tools/call", "params",
        Json.call("slow_plain", Json.obj("durationMs", durationMs, "result", result), null));
    message.put("id", id);
    return message.toString();
  }

  private static String text(HttpResponse<String> response) {
    return HttpTestClient.message(response).path("result").path("content").get(0).path("text").asText();
  }

  private void awaitInFlight(String session, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (server.answersAwaited(session) < count) {
      assertThat(System.nanoTime()).as("request registered within 10 s").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (Exception e) {
      throw new AssertionError(line, e);
    }
  }
}
