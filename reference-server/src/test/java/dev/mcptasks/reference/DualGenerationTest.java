package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --generation dual}: one server answers a 2025-11-25 initialize flow and a 2026-07-28 flow; 2025 tasks stay
 * reachable from 2026 tasks/get and tasks/cancel (SEP-2663), 2026 tasks are invisible to 2025 requests.
 */
class DualGenerationTest {
  private final ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults()
      .withGeneration(ServedGenerations.DUAL).withPollIntervalMs(50));

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void bothFlowsWorkOverStdio() throws Exception {
    try (StdioTestClient client = new StdioTestClient(server)) {
      JsonNode initialized = client.initialize();
      assertThat(initialized.path("protocolVersion").asText()).isEqualTo("2025-11-25");
      assertThat(initialized.path("capabilities").has("tasks")).isTrue();
      String v2025 = client.result("tools/call", Json.call("work", Json.obj("durationMs", 5, "result", "old"),
          60_000L)).path("task").path("taskId").asText();
      JsonNode v2025Result = client.result("tasks/result", Json.taskId(v2025));
      assertThat(v2025Result.path("content").get(0).path("text").asText()).isEqualTo("old");
      assertThat(client.result("tasks/list", Json.obj()).path("tasks").findValuesAsText("taskId")).contains(v2025);

      JsonNode discover = client.result("server/discover", Json.v2026(null, true));
      assertThat(discover.path("supportedVersions").toString()).isEqualTo("[\"2026-07-28\"]");
      assertThat(discover.path("capabilities").has("tasks")).isFalse();
      assertThat(discover.path("capabilities").path("extensions").has("io.modelcontextprotocol/tasks")).isTrue();

      JsonNode created = client.result("tools/call", Json.v2026(Json.obj("name", "work", "arguments",
          Json.obj("durationMs", 60_000)), true));
      assertThat(created.path("resultType").asText()).isEqualTo("task");
      String v2026 = created.path("taskId").asText();
      assertThat(client.request("tasks/get", Json.taskId(v2026)).path("error").path("code").asInt())
          .isEqualTo(-32602);
      assertThat(client.result("tasks/list", Json.obj()).path("tasks").findValuesAsText("taskId"))
          .doesNotContain(v2026);

      // SEP-2663: 2026 requests reach the 2025 task, in 2026 shapes
      JsonNode v2025Via2026 = client.result("tasks/get", Json.v2026(Json.taskId(v2025), true));
      assertThat(v2025Via2026.path("status").asText()).isEqualTo("completed");
      assertThat(v2025Via2026.path("ttlMs").asLong()).isEqualTo(60_000);
      assertThat(v2025Via2026.path("result").path("content").get(0).path("text").asText()).isEqualTo("old");
      String running = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 60_000L))
          .path("task").path("taskId").asText();
      assertThat(client.result("tasks/cancel", Json.v2026(Json.taskId(running), true)).path("resultType")
          .asText()).isEqualTo("complete");
      assertThat(client.result("tasks/get", Json.taskId(running)).path("status").asText()).isEqualTo("cancelled");
    }
  }

  @Test
  void bothFlowsWorkOverHttp() {
    HttpTestClient v2025Client = new HttpTestClient(server.startHttp(0));
    JsonNode initialized = v2025Client.initialize();
    assertThat(initialized.path("capabilities").has("tasks")).isTrue();
    assertThat(v2025Client.sessionId).isNotNull();
    String v2025 = v2025Client.result("tools/call", Json.call("work", Json.obj("durationMs", 5, "result",
        "old"), 60_000L)).path("task").path("taskId").asText();
    assertThat(v2025Client.result("tasks/result", Json.taskId(v2025)).path("content").get(0).path("text")
        .asText()).isEqualTo("old");

    HttpTestClient v2026Client = new HttpTestClient(server.httpUri());
    HttpResponse<String> discover = v2026Client.post2026("server/discover", Json.v2026(null, true));
    assertThat(discover.statusCode()).isEqualTo(200);
    assertThat(discover.headers().firstValue("Mcp-Session-Id")).isEmpty();
    assertThat(HttpTestClient.body(discover).path("result").path("capabilities").has("tasks")).isFalse();
    HttpResponse<String> created = v2026Client.post2026("tools/call", Json.v2026(Json.obj("name", "work",
        "arguments", Json.obj("durationMs", 5, "result", "new")), true));
    assertThat(created.statusCode()).isEqualTo(200);
    assertThat(HttpTestClient.body(created).path("result").path("resultType").asText()).isEqualTo("task");
    HttpResponse<String> v2025Via2026 = v2026Client.post2026("tasks/get", Json.v2026(Json.taskId(v2025),
        true));
    assertThat(HttpTestClient.body(v2025Via2026).path("result").path("status").asText()).isEqualTo("completed");

    // without the envelope and a session, the 2025 rules apply; a 2026 version header makes it a 2026 request
    HttpResponse<String> sessionless = v2026Client.post(v2026Client.request("ping", null).toString());
    assertThat(sessionless.statusCode()).isEqualTo(400);
    assertThat(HttpTestClient.body(sessionless).path("error").path("message").asText())
        .contains("Mcp-Session-Id header is required");
    HttpResponse<String> noEnvelope = v2026Client.post2026(v2026Client.request("ping", Json.obj()),
        Map.of());
    assertThat(noEnvelope.statusCode()).isEqualTo(400);
    assertThat(HttpTestClient.body(noEnvelope).path("error").path("code").asInt()).isEqualTo(-32602);
  }
}
