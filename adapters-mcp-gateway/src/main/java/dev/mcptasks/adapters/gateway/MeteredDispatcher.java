package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.metrics.Metrics;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Times every gateway request by method and principal. A client chooses the method text, so only the methods MCP
 * defines are labels; anything else is {@code other} (a response to a request of ours: {@code response}).
 */
final class MeteredDispatcher implements FrontDispatcher {
    private static final Set<String> METHODS = Set.of("initialize", "ping", "tools/list", "tools/call",
            "tasks/get", "tasks/result", "tasks/cancel", "tasks/list", "tasks/update", "server/discover",
            "resources/list", "prompts/list", "notifications/initialized", "notifications/cancelled",
            "subscriptions/listen", "tasks/input_response");

    private final FrontDispatcher delegate;
    private final Metrics metrics;
    private final Clock clock;

    MeteredDispatcher(FrontDispatcher delegate, Metrics metrics, Clock clock) {
        this.delegate = delegate;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<Optional<ObjectNode>> dispatch(FrontRequest request) {
        long start = clock.nanoTime();
        String method = methodOf(request.message());
        CompletableFuture<Optional<ObjectNode>> answer = delegate.dispatch(request);
        answer.whenComplete((reply, error) -> metrics.gatewayRequest(method, request.principal(),
                Duration.ofNanos(clock.nanoTime() - start)));
        return answer;
    }

    @Override
    public void sessionClosed(FrontSession session) {
        delegate.sessionClosed(session);
    }

    @Override
    public void stopping() {
        delegate.stopping();
    }

    static String methodOf(ObjectNode message) {
        JsonNode method = message.get("method");
        if (method == null) {
            return "response";
        }
        return method.isTextual() && METHODS.contains(method.asText()) ? method.asText() : "other";
    }
}
