package dev.mcptasks.mcp;

import static dev.mcptasks.testkit.transport.RawHttpPeer.json;
import static dev.mcptasks.testkit.transport.RawHttpPeer.result;
import static dev.mcptasks.testkit.transport.RawHttpPeer.status;

import dev.mcptasks.testkit.transport.RawHttpPeer;
import dev.mcptasks.testkit.transport.RawHttpPeer.Reply;
import dev.mcptasks.testkit.transport.RawHttpPeer.Request;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * A task-capable MCP server over {@link RawHttpPeer}, scripted per method: {@code initialize} hands out a session,
 * {@code tools/list} lists the task tool {@code work}, notifications get 202, DELETE 200; {@code tools/call},
 * {@code tasks/get} and the listening GET do what the test sets.
 */
final class TaskPeerScript implements Function<Request, Reply> {
    static final String TASK = "{\"task\":{\"taskId\":\"r1\",\"status\":\"working\",\"ttl\":null,"
            + "\"createdAt\":\"2026-12-02T11:29:08.492Z\",\"lastUpdatedAt\":\"2026-12-02T11:29:08.492Z\"}}";

    volatile Function<Request, Reply> toolsCall = request -> json(result(request.rpcId(), TASK));
    volatile Function<Request, Reply> tasksGet = request -> RawHttpPeer.hold();
    volatile Function<Request, Reply> listening = request -> status(405, "");

    @Override
    public Reply apply(Request request) {
        switch (request.method()) {
            case "GET" -> {
                return listening.apply(request);
            }
            case "DELETE" -> {
                return status(200, "");
            }
            default -> { }
        }
        String id = request.rpcId();
        if (id == null || request.rpcMethod().isEmpty()) {
            return status(202, "");
        }
        return switch (request.rpcMethod()) {
            case "initialize" -> new Reply.Respond(200, "application/json", result(id,
                    "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{},\"tasks\":{\"cancel\":{},"
                            + "\"requests\":{\"tools\":{\"call\":{}}}}},\"serverInfo\":{\"name\":\"raw\","
                            + "\"version\":\"1\"}}"), Map.of("Mcp-Session-Id", "s1"));
            case "tools/list" -> json(result(id, "{\"tools\":[{\"name\":\"work\",\"inputSchema\":{\"type\":"
                    + "\"object\"},\"execution\":{\"taskSupport\":\"required\"}}]}"));
            case "tools/call" -> toolsCall.apply(request);
            case "tasks/get" -> tasksGet.apply(request);
            default -> json("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32601,\"message\":"
                    + "\"Method not found\"}}");
        };
    }

    /** The session is gone, as a Streamable HTTP server says it. */
    static Reply sessionGone(Request request) {
        return status(404, "{\"jsonrpc\":\"2.0\",\"id\":" + request.rpcId()
                + ",\"error\":{\"code\":-32001,\"message\":\"Session not found\"}}");
    }

    /** Waits (bounded) for a condition the peer's threads make true. */
    static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
