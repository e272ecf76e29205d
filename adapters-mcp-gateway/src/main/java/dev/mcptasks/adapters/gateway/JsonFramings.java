package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;
import java.util.function.Consumer;

/** How a JSON answer to a POST is framed, per kind of request. */
final class JsonFramings {
    private JsonFramings() {}

    /** A 2025 request in its session: 200, whatever the JSON-RPC outcome. */
    record Plain() implements PostExchange.JsonFraming {
        @Override
        public HttpResponseStatus status(ObjectNode answer) {
            return HttpResponseStatus.OK;
        }

        @Override
        public Map<String, String> headers(ObjectNode answer) {
            return Map.of();
        }
    }

    /** A 2026 request: the edge errors get their HTTP status (400, 404), as 2026 clients expect. */
    record Of2026() implements PostExchange.JsonFraming {
        @Override
        public HttpResponseStatus status(ObjectNode answer) {
            return HttpResponseStatus.valueOf(Headers2026.httpStatus(answer));
        }

        @Override
        public Map<String, String> headers(ObjectNode answer) {
            return Map.of();
        }
    }

    /**
     * {@code initialize}: a successful answer registers the new session and names it in {@code Mcp-Session-Id} (the
     * session the principal's cap makes room for goes to {@code evicted}); a refused one leaves no session behind
     * ({@code refused} is told).
     */
    record Initialize(HttpSession session, HttpSessions sessions, Consumer<HttpSession> evicted,
            Consumer<HttpSession> refused) implements PostExchange.JsonFraming {
        @Override
        public HttpResponseStatus status(ObjectNode answer) {
            return HttpResponseStatus.OK;
        }

        @Override
        public Map<String, String> headers(ObjectNode answer) {
            if (answer.has("result")) {
                // the principal's least recently used session makes room when it holds its cap
                sessions.register(session).ifPresent(evicted);
                return Map.of(HttpReplies.SESSION_ID, session.id());
            }
            refused.accept(session);
            return Map.of();
        }
    }
}
