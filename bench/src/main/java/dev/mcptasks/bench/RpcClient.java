package dev.mcptasks.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal MCP client over Streamable HTTP (2025-11-25, JSON answers): the same few lines call the upstream
 * directly and through the gateway, so both sides of a comparison pay the same client cost.
 */
final class RpcClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final AtomicLong ids = new AtomicLong();
    private final URI endpoint;
    private final String session;

    private RpcClient(URI endpoint, String session) {
        this.endpoint = endpoint;
        this.session = session;
    }

    /** Initializes a session at {@code endpoint}. */
    static RpcClient open(URI endpoint) throws IOException, InterruptedException {
        RpcClient bare = new RpcClient(endpoint, null);
        HttpResponse<String> answer = bare.post(bare.request("initialize", JSON.createObjectNode()
                .put("protocolVersion", "2025-11-25")
                .<ObjectNode>set("capabilities", JSON.createObjectNode())
                .set("clientInfo", JSON.createObjectNode().put("name", "mcp-tasks-bench").put("version", "1"))));
        String session = answer.headers().firstValue("Mcp-Session-Id").orElse(null);
        RpcClient client = new RpcClient(endpoint, session);
        ObjectNode initialized = JSON.createObjectNode().put("jsonrpc", "2.0").put("method",
                "notifications/initialized");
        client.post(JSON.writeValueAsString(initialized));
        return client;
    }

    /** Calls {@code tool} with {@code arguments}; answers the result, or throws with the error. */
    JsonNode call(String tool, ObjectNode arguments) throws IOException, InterruptedException {
        HttpResponse<String> answer = post(request("tools/call",
                JSON.createObjectNode().put("name", tool).set("arguments", arguments)));
        JsonNode body = JSON.readTree(answerOf(answer));
        if (answer.statusCode() != 200 || body.has("error") || body.path("result").path("isError").asBoolean()) {
            throw new IOException("tools/call " + tool + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return body.path("result");
    }

    /** The JSON-RPC answer of a response: its JSON body, or the last {@code data:} event of an SSE body. */
    private static String answerOf(HttpResponse<String> answer) {
        if (!answer.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            return answer.body();
        }
        String last = "{}";
        for (String line : answer.body().split("\n")) {
            if (line.startsWith("data:") && line.contains("\"id\"")) {
                last = line.substring("data:".length()).trim();
            }
        }
        return last;
    }

    private String request(String method, ObjectNode params) throws IOException {
        ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet())
                .put("method", method);
        message.set("params", params);
        return JSON.writeValueAsString(message);
    }

    private HttpResponse<String> post(String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2025-11-25")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() >= 400) {
            throw new IOException(endpoint + " answered " + answer.statusCode() + ": " + answer.body());
        }
        return answer;
    }
}
