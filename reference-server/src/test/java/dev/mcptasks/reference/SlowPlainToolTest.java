package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code slow_plain} over stdio: progress for the request's token before the answer, and cancellations recorded. */
class SlowPlainToolTest {
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
  void reportsProgressForItsTokenBeforeAnsweringPlainly() {
    ObjectNode params = Json.call("slow_plain", Json.obj("durationMs", 300, "steps", 2, "result", "late"), null);
    params.set("_meta", Json.obj("progressToken", "tok-1"));
    CompletableFuture<JsonNode> second = client.whenReceived(m -> isProgress(m, 2));

    JsonNode answer = client.result("tools/call", params);

    assertThat(answer.path("content").get(0).path("text").asText()).isEqualTo("late");
    assertThat(answer.has("task")).isFalse();
    JsonNode progress = StdioTestClient.await(second).path("params");
    assertThat(progress.path("progressToken").asText()).isEqualTo("tok-1");
    assertThat(progress.path("total").asInt()).isEqualTo(2);
    assertThat(progress.path("message").asText()).isEqualTo("step 2 of 2");
    assertThat(StdioTestClient.await(client.whenReceived(m -> isProgress(m, 1)))).isNotNull();
  }

  @Test
  void recordsTheCancelledNotificationsItReceives() {
    CompletableFuture<JsonNode> running = client.send("tools/call",
        Json.call("slow_plain", Json.obj("durationMs", 60_000), null));
    client.writeLine("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2,"
        + "\"reason\":\"user asked\"}}");
    client.result("ping", null);

    assertThat(server.receivedCancellations()).extracting(ReceivedCancellation::requestId,
        ReceivedCancellation::reason).containsExactly(org.assertj.core.groups.Tuple.tuple("2", "user asked"));
    assertThat(running).isNotDone();
  }

  private static boolean isProgress(JsonNode message, int step) {
    return "notifications/progress".equals(message.path("method").asText())
        && message.path("params").path("progress").asInt() == step;
  }
}
