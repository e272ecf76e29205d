package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A minimal Streamable HTTP client on java.net.http for tests: one session, POSTs parsed as JSON or SSE. */
final class HttpTestClient {
  static final String ACCEPT_BOTH = "application/json, text/event-stream";

  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  final URI uri;
  private final AtomicInteger ids = new AtomicInteger();
  String sessionId;
  /** Sent as {@code X-Client-Tag} when set. */
  String clientTag;

  HttpTestClient(URI uri) {
    this.uri = uri;
  }

  /** Initializes and remembers the session id. */
  JsonNode initialize() {
    HttpResponse<String> response = post(request("initialize", Json.obj("protocolVersion", "2025-11-25",
        "capabilities", Json.obj(), "clientInfo", Json.obj("name", "test", "version", "1"))).toString());
    sessionId = response.headers().firstValue("Mcp-Session-Id")
        .orElseThrow(() -> new AssertionError("no Mcp-Session-Id in " + response.headers()));
    HttpResponse<String> initialized = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    if (initialized.statusCode() != 202) {
      throw new AssertionError("notifications/initialized got " + initialized.statusCode());
    }
    return message(response).path("result");
  }

  ObjectNode request(String method, JsonNode params) {
    ObjectNode message = Json.obj("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", method);
    if (params != null) {
      message.set("params", params);
    }
    return message;
  }

  HttpRequest.Builder postBuilder(String body) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .header("Accept", ACCEPT_BOTH)
        .timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (clientTag != null) {
      builder.header("X-Client-Tag", clientTag);
    }
    if (sessionId != null) {
      builder.header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", "2025-11-25");
    }
    return builder;
  }

  HttpResponse<String> post(String body) {
    return send(postBuilder(body).build());
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Sends a request and returns the whole JSON-RPC response message. */
  JsonNode call(String method, JsonNode params) {
    return message(post(request(method, params).toString()));
  }

  CompletableFuture<JsonNode> callAsync(String method, JsonNode params) {
    return http.sendAsync(postBuilder(request(method, params).toString()).build(),
        HttpResponse.BodyHandlers.ofString()).thenApply(HttpTestClient::message);
  }

  JsonNode result(String method, JsonNode params) {
    JsonNode response = call(method, params);
    if (!response.has("result")) {
      throw new AssertionError(method + " failed: " + response);
    }
    return response.get("result");
  }

  /**
   * POSTs a 2026-07-28 message without a session, with the headers SEP-2243 derives from the body
   * ({@code MCP-Protocol-Version} from the envelope, {@code Mcp-Method}, {@code Mcp-Name} = tool name or task id);
   * {@code overrides} replace them, a null value leaving the header out.
   */
  HttpResponse<String> post2026(ObjectNode message, Map<String, String> overrides) {
    Map<String, String> headers = new LinkedHashMap<>();
    JsonNode params = message.path("params");
    JsonNode version = params.path("_meta").path("io.modelcontextprotocol/protocolVersion");
    headers.put("MCP-Protocol-Version", version.isTextual() ? version.textValue() : "2026-07-28");
    String method = message.path("method").asText();
    headers.put("Mcp-Method", method);
    if (method.equals("tools/call")) {
      headers.put("Mcp-Name", params.path("name").asText());
    } else if (method.startsWith("tasks/") && params.path("taskId").isTextual()) {
      headers.put("Mcp-Name", params.path("taskId").asText());
    }
    headers.putAll(overrides);
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .header("Accept", ACCEPT_BOTH)
        .timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(message.toString()));
    if (clientTag != null) {
      builder.header("X-Client-Tag", clientTag);
    }
    headers.forEach((name, value) -> {
      if (value != null) {
        builder.header(name, value);
      }
    });
    return send(builder.build());
  }

  /** A 2026 request {@code method} with {@code params} as given (envelope included or not by the caller). */
  HttpResponse<String> post2026(String method, JsonNode params) {
    return post2026(request(method, params), Map.of());
  }

  /** The JSON body of a response whatever its status. */
  static JsonNode body(HttpResponse<String> response) {
    try {
      return StdioTestClient.MAPPER.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The one JSON-RPC message of a response, whether the body is JSON or an SSE stream. */
  static JsonNode message(HttpResponse<String> response) {
    if (response.statusCode() != 200) {
      throw new AssertionError("HTTP " + response.statusCode() + ": " + response.body());
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    List<String> data = type.startsWith("text/event-stream") ? sseData(response.body()) : List.of(response.body());
    if (data.size() != 1) {
      throw new AssertionError("expected one message but got " + data);
    }
    try {
      return StdioTestClient.MAPPER.readTree(data.get(0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The non-empty {@code data:} payloads of an SSE body, one per event. */
  static List<String> sseData(String body) {
    List<String> data = new ArrayList<>();
    for (String event : body.split("\n\n")) {
      StringBuilder payload = new StringBuilder();
      for (String line : event.split("\n")) {
        if (line.startsWith("data:")) {
          payload.append(line.substring(5).strip());
        }
      }
      if (payload.length() > 0) {
        data.add(payload.toString());
      }
    }
    return data;
  }

  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("no answer within 10 s", e);
    }
  }
}
