package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The 2026-07-28 scenarios over Streamable HTTP, plus the header rule, status codes and the absence of sessions. */
class Http2026Test extends Scenarios2026 {
  private HttpTestClient client;
  private HttpResponse<String> last;

  @Override
  void connect(ReferenceServerOptions options) {
    server = new ReferenceServer(options);
    client = new HttpTestClient(server.startHttp(0));
  }

  @Override
  void disconnect() {
    // the server closes the connections
  }

  @Override
  JsonNode send(String method, ObjectNode params) {
    last = client.post2026(method, params);
    assertThat(last.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(last.headers().firstValue("Mcp-Session-Id")).isEmpty();
    return HttpTestClient.body(last);
  }

  @Override
  void expectHttpStatus(int status) {
    assertThat(last.statusCode()).as(last.body()).isEqualTo(status);
  }

  @Test
  void headersMustAgreeWithTheBody() {
    String taskId = createTask(Json.obj("durationMs", 60_000));
    ObjectNode get = client.request("tasks/get", Json.v2026(Json.taskId(taskId), true));

    JsonNode wrongName = mismatch(get, "Mcp-Name", "not-the-task");
    assertThat(wrongName.path("message").asText()).isEqualTo("Bad Request: the request headers and body disagree: "
        + "the body carries params.taskId=\"" + taskId + "\" but the Mcp-Name header names \"not-the-task\"");
    assertThat(wrongName.path("data").path("mismatch").path("header").asText()).isEqualTo("not-the-task");

    JsonNode noVersion = mismatch(get, "MCP-Protocol-Version", null);
    assertThat(noVersion.path("message").asText()).endsWith("the body envelope names protocol version 2026-07-28 "
        + "but the required MCP-Protocol-Version header is absent");
    JsonNode otherVersion = mismatch(get, "MCP-Protocol-Version", "2025-11-25");
    assertThat(otherVersion.path("message").asText()).contains("MCP-Protocol-Version header names \"2025-11-25\"");
    JsonNode noMethod = mismatch(get, "Mcp-Method", null);
    assertThat(noMethod.path("message").asText()).endsWith("the body names method tasks/get but the required "
        + "Mcp-Method header is absent");
    ObjectNode call = client.request("tools/call", Json.v2026(Json.obj("name", "echo", "arguments",
        Json.obj("text", "x")), true));
    JsonNode noName = mismatch(call, "Mcp-Name", null);
    assertThat(noName.path("message").asText()).endsWith("the body carries params.name=\"echo\" but the required "
        + "Mcp-Name header is absent");

    String encoded = "=?base64?" + Base64.getEncoder().encodeToString("echo".getBytes(StandardCharsets.UTF_8)) + "?=";
    HttpResponse<String> sentinel = client.post2026(call, Map.of("Mcp-Name", encoded));
    assertThat(sentinel.statusCode()).isEqualTo(200);
    assertThat(HttpTestClient.body(sentinel).path("result").path("content").get(0).path("text").asText())
        .isEqualTo("x");
  }

  @Test
  void getAndDeleteAreNotAllowed() {
    for (String method : new String[] {"GET", "DELETE"}) {
      HttpResponse<String> response = client.send(HttpRequest.newBuilder(client.uri)
          .header("Accept", "text/event-stream, application/json").timeout(Duration.ofSeconds(10))
          .method(method, HttpRequest.BodyPublishers.noBody()).build());
      assertThat(response.statusCode()).as(method).isEqualTo(405);
      assertThat(response.headers().firstValue("Allow")).as(method).contains("POST");
      assertThat(HttpTestClient.body(response).path("error").path("message").asText())
          .isEqualTo("Method not allowed.");
    }
  }

  @Test
  void aNotificationIsAccepted() {
    HttpResponse<String> response = client.post2026(Json.obj("jsonrpc", "2.0", "method",
        "notifications/cancelled", "params", Json.v2026(Json.obj("requestId", 1), true)), Map.of());
    assertThat(response.statusCode()).isEqualTo(202);
  }

  private JsonNode mismatch(ObjectNode message, String header, String value) {
    Map<String, String> overrides = new HashMap<>();
    overrides.put(header, value);
    HttpResponse<String> response = client.post2026(message, overrides);
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = HttpTestClient.body(response).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32020);
    return error;
  }
}
