package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A hand-written dispatcher for the transports' tests: it records every message it is given and answers requests
 * from per-method handlers (a gate the test completes, or a computed answer); by default {@code initialize} succeeds
 * and any other request gets {@code {"method": <method>}} as its result.
 */
final class FakeDispatcher implements FrontDispatcher {
    private static final long WAIT_SECONDS = 10;

    private final BlockingQueue<FrontRequest> received = new LinkedBlockingQueue<>();
    private final BlockingQueue<FrontSession> closed = new LinkedBlockingQueue<>();
    private final Map<String, Function<FrontRequest, CompletableFuture<Optional<ObjectNode>>>> handlers =
            new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<Optional<ObjectNode>> dispatch(FrontRequest request) {
        received.add(request);
        ObjectNode message = request.message();
        if (!message.has("id") || !message.has("method")) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        String method = message.path("method").asText();
        var handler = handlers.get(method);
        if (handler != null) {
            return handler.apply(request);
        }
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        if ("initialize".equals(method)) {
            result.put("protocolVersion", message.path("params").path("protocolVersion").asText("2025-11-25"));
            result.putObject("capabilities").putObject("tools");
            result.putObject("serverInfo").put("name", "fake").put("version", "0");
        } else {
            result.put("method", method);
        }
        return CompletableFuture.completedFuture(Optional.of(result(request, result)));
    }

    @Override
    public void sessionClosed(FrontSession session) {
        closed.add(session);
    }

    /** Answers {@code method} with {@code handler} from now on. */
    void answer(String method, Function<FrontRequest, CompletableFuture<Optional<ObjectNode>>> handler) {
        handlers.put(method, handler);
    }

    /** The next {@code method} request will wait for the returned future, which the test completes. */
    CompletableFuture<Optional<ObjectNode>> gate(String method) {
        CompletableFuture<Optional<ObjectNode>> gate = new CompletableFuture<>();
        handlers.put(method, request -> gate);
        return gate;
    }

    /** The next message with {@code method} (skipping others), waiting up to ten seconds. */
    FrontRequest next(String method) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (true) {
            FrontRequest request = received.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (request == null) {
                throw new AssertionError("the dispatcher got no " + method + " within " + WAIT_SECONDS + " s");
            }
            if (method.equals(request.message().path("method").asText())) {
                return request;
            }
        }
    }

    /** The next session the transport reported closed, waiting up to ten seconds. */
    FrontSession nextClosed() throws InterruptedException {
        FrontSession session = closed.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        if (session == null) {
            throw new AssertionError("no session was closed within " + WAIT_SECONDS + " s");
        }
        return session;
    }

    /** The next session reported closed within {@code wait}, or null. */
    FrontSession pollClosed(Duration wait) throws InterruptedException {
        return closed.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Sessions reported closed so far, without waiting. */
    int closedCount() {
        return closed.size();
    }

    static ObjectNode result(FrontRequest request, ObjectNode result) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", request.message().get("id"));
        response.set("result", result);
        return response;
    }

    static ObjectNode error(FrontRequest request, int code, String message) {
        return JsonRpc.error(request.message().get("id"), code, message);
    }
}
