package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway over stdio: newline-delimited JSON-RPC for one principal and one implicit session. Requests are
 * dispatched in arrival order and answered as their answers come, in any order; a line that is not JSON-RPC gets an
 * error line and the loop goes on. Only JSON-RPC is ever written to the output (logging must go elsewhere). A
 * {@code notifications/cancelled} naming a pending request cancels it, and it gets no answer (how a 2026
 * {@code subscriptions/listen} is ended here). End of input ends the session: its subscriptions end, and the answers
 * still pending have {@code drain} to arrive.
 */
public final class StdioGateway {
    private static final Logger LOG = LoggerFactory.getLogger(StdioGateway.class);
    private static final String SESSION_ID = "stdio";

    private final FrontDispatcher dispatcher;
    private final String principal;
    private final int maxLineBytes;
    private final Duration drain;
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private StdioGateway(FrontDispatcher dispatcher, String principal, int maxLineBytes, Duration drain) {
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.principal = Objects.requireNonNull(principal, "principal");
        if (principal.isBlank() || maxLineBytes < 1 || drain.isNegative()) {
            throw new IllegalArgumentException("stdio gateway: principal must not be blank, maxLineBytes must be "
                    + "positive and drain not negative");
        }
        this.maxLineBytes = maxLineBytes;
        this.drain = drain;
    }

    /**
     * A stdio front door for {@code principal}, reading lines up to {@code maxLineBytes} and giving pending answers
     * {@code drain} after end of input.
     */
    public static StdioGateway of(FrontDoor door, String principal, int maxLineBytes, Duration drain) {
        return new StdioGateway(Objects.requireNonNull(door, "door").dispatcher(), principal, maxLineBytes, drain);
    }

    static StdioGateway of(FrontDispatcher dispatcher, String principal, int maxLineBytes, Duration drain) {
        return new StdioGateway(dispatcher, principal, maxLineBytes, drain);
    }

    /** Serves until {@code in} ends; returns once the session is closed. */
    public void serve(InputStream in, OutputStream out) throws IOException {
        StdioSession session = new StdioSession(SESSION_ID, out, mapper);
        Map<JsonNode, Pending> pending = new ConcurrentHashMap<>();
        LineReader lines = new LineReader(in, maxLineBytes);
        try {
            for (LineReader.Line line = lines.next(); line != null; line = lines.next()) {
                if (line instanceof LineReader.Line.Text text) {
                    handle(text.bytes(), session, pending);
                } else {
                    session.write(JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
                            "Invalid Request: the line exceeds " + maxLineBytes + " bytes"));
                }
            }
        } finally {
            // nobody reads a subscription's stream any more: it ends, unanswered
            pending.values().stream().filter(Pending::listen).forEach(Pending::cancel);
            awaitPending(pending);
            dispatcher.sessionClosed(session);
        }
    }

    /** A request waiting for its answer; a cancelled one is answered nothing. */
    private record Pending(CompletableFuture<Optional<ObjectNode>> answer, boolean listen) {
        void cancel() {
            answer.cancel(false);
        }
    }

    private void handle(byte[] bytes, StdioSession session, Map<JsonNode, Pending> pending) {
        if (blank(bytes)) {
            return;
        }
        JsonNode message;
        try {
            message = mapper.readTree(bytes);
        } catch (IOException e) {
            session.write(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "Parse error: the line is not valid JSON"));
            return;
        }
        if (message != null && message.isArray()) {
            session.write(JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: batches are not supported, send one JSON-RPC message per line"));
            return;
        }
        JsonRpc.Kind kind = JsonRpc.kind(message);
        if (kind == JsonRpc.Kind.INVALID) {
            session.write(JsonRpc.error(JsonRpc.idOf(message), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: the line is not one JSON-RPC 2.0 request, notification or response"));
            return;
        }
        ObjectNode body = (ObjectNode) message;
        // A 2026-07-28 message (it carries the per-request envelope) is stateless on stdio as on HTTP.
        boolean is2026 = body.path("params").path("_meta").has(Headers2026.ENVELOPE_VERSION);
        if (kind != JsonRpc.Kind.REQUEST && "notifications/cancelled".equals(body.path("method").asText())) {
            Pending cancelled = pending.get(body.path("params").path("requestId"));
            if (cancelled != null) {
                cancelled.cancel();
            }
        }
        // a 2026 request's messages ahead of its answer (a subscription's) are lines of the one output, too
        CompletableFuture<Optional<ObjectNode>> answer = dispatch(new FrontRequest(principal, is2026 ? null : session,
                body, null, is2026 ? session::write : RequestStream.NONE));
        if (kind == JsonRpc.Kind.REQUEST) {
            JsonNode id = body.get("id");
            Pending entry = new Pending(answer, TaskListens.METHOD.equals(body.path("method").asText()));
            pending.put(id, entry);
            answer.whenComplete((result, failure) -> {
                pending.remove(id, entry);
                if (!answer.isCancelled()) {
                    session.write(JsonRpc.responseTo(body, result, failure));
                }
            });
        }
    }

    private CompletableFuture<Optional<ObjectNode>> dispatch(FrontRequest request) {
        try {
            CompletableFuture<Optional<ObjectNode>> answer = dispatcher.dispatch(request);
            return answer == null ? CompletableFuture.completedFuture(Optional.empty()) : answer;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void awaitPending(Map<JsonNode, Pending> pending) {
        try {
            CompletableFuture.allOf(pending.values().stream().map(Pending::answer).toArray(CompletableFuture[]::new))
                    .get(drain.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.info("stdio input ended with {} request(s) unanswered after {}", pending.size(), drain);
        } catch (ExecutionException e) {
            // each failure was answered with its own error line
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean blank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }
}
