package dev.mcptasks.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.DurationText;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transport generation of a session: the in-flight requests keyed by JSON-RPC id, and the routing of inbound
 * messages. Once lost (process exit, session lost, local close) it stays lost: every request still in flight fails
 * with a retryable {@link McpTransportFailure} and the session builds a new connection for the next request.
 */
final class McpConnection implements McpTransport.Listener {
    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    /** What the session learns from its connection. */
    interface Events {
        void onNotification(McpConnection connection, String method, JsonNode params);

        void onLost(McpConnection connection, McpTransportException cause);
    }

    private final String serverName;
    private final McpTransport transport;
    private final Clock clock;
    private final Events events;
    private final UpstreamNoise noise;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicBoolean lost = new AtomicBoolean();
    /** Ids of requests this client timed out or cancelled, whose late answers are expected (bounded). */
    private final RecentIds recentlyAbandoned = new RecentIds(1024);
    private volatile McpTransportException lostCause;
    /** Whether a timed-out or cancelled request is announced with {@code notifications/cancelled}. */
    private volatile boolean cancelNotifications = true;
    /** Completes with the handshake once {@code notifications/initialized} went out; fails if the handshake did. */
    final CompletableFuture<McpHandshake> ready = new CompletableFuture<>();

    private static final class Pending {
        final String id;
        final String method;
        final CompletableFuture<JsonNode> result;
        final boolean cancellable;
        /** Set just before the request is handed to the transport: only then is a cancellation worth sending. */
        volatile boolean written;
        /** What the transport returned for it; guarded by this. */
        private CompletableFuture<Void> sending;
        /** The caller gave up on the answer (timeout or cancel); guarded by this. */
        private boolean abandoned;

        Pending(String id, String method, CompletableFuture<JsonNode> result, boolean cancellable) {
            this.id = id;
            this.method = method;
            this.result = result;
            this.cancellable = cancellable;
        }
    }

    McpConnection(String serverName, McpTransport transport, Clock clock, Events events, UpstreamNoise noise) {
        this.serverName = serverName;
        this.transport = transport;
        this.clock = clock;
        this.noise = noise;
        this.events = events;
    }

    /** 2026-07-28 over HTTP cancels a request by closing its stream only (set before the connection is ready). */
    void cancelNotifications(boolean send) {
        cancelNotifications = send;
    }

    McpTransport transport() {
        return transport;
    }

    boolean isLost() {
        return lost.get();
    }

    int inFlight() {
        return pending.size();
    }

    /**
     * Sends a request whose answer completes {@code result}. A timeout fails it with {@link McpTimeoutException};
     * for a cancellable request the timeout and a caller's {@code cancel} both send {@code notifications/cancelled}.
     * Either also abandons the request in the transport (HTTP closes its POST). The returned future completes once
     * the transport holds nothing more for this request: at once when it was never written.
     */
    CompletableFuture<Void> call(String method, JsonNode params, Duration timeout, CompletableFuture<JsonNode> result,
            boolean cancellable) {
        String id = RequestIds.next();
        Pending request = new Pending(id, method, result, cancellable);
        pending.put(id, request);
        // a loss that raced the put has already swept the map: this request must not wait for an answer
        if (lost.get()) {
            if (pending.remove(id, request)) {
                result.completeExceptionally(failure(method, lostCause, false));
            }
            return CompletableFuture.completedFuture(null);
        }
        result.whenComplete((value, error) -> {
            if (pending.remove(id, request) && result.isCancelled() && request.written) {
                recentlyAbandoned.add(id);
                if (cancellable) {
                    sendCancelled(id, "cancelled by the client");
                }
                abandon(request);
            }
        });
        if (result.isDone()) {
            return CompletableFuture.completedFuture(null);
        }
        Clock.Timer timer = clock.schedule(timeout, () -> expire(request, timeout));
        result.whenComplete((value, error) -> timer.cancel());
        request.written = true;
        CompletableFuture<Void> sending;
        try {
            sending = transport.send(Json.request(id, method, params));
        } catch (RuntimeException e) {
            sending = CompletableFuture.failedFuture(e);
        }
        boolean abandonNow;
        synchronized (request) {
            request.sending = sending;
            abandonNow = request.abandoned;
        }
        if (abandonNow) {
            abandonQuietly(sending);
        }
        sending.whenComplete((ignored, error) -> {
            if (error != null) {
                sendFailed(request, asTransportException(error));
            }
        });
        return sending.handle((ignored, error) -> null);
    }

    /** The caller no longer wants the answer: the transport may let go of what it holds for the request. */
    private void abandon(Pending request) {
        CompletableFuture<Void> sending;
        synchronized (request) {
            request.abandoned = true;
            sending = request.sending;
        }
        if (sending != null) {
            abandonQuietly(sending);
        }
    }

    private void abandonQuietly(CompletableFuture<Void> sending) {
        try {
            transport.abandon(sending);
        } catch (RuntimeException e) {
            log.debug("server '{}': abandoning a request failed: {}", serverName, e.toString());
        }
    }

    /** Sends a notification; the future says whether the transport delivered it. */
    CompletableFuture<Void> notify(String method, JsonNode params) {
        try {
            return transport.send(Json.notification(method, params));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void expire(Pending request, Duration timeout) {
        if (pending.remove(request.id, request)) {
            recentlyAbandoned.add(request.id);
            request.result.completeExceptionally(new McpTimeoutException(serverName, request.method, timeout));
            if (request.cancellable) {
                sendCancelled(request.id, "timed out after " + DurationText.of(timeout));
            }
            abandon(request);
        }
    }

    private void sendCancelled(String id, String reason) {
        if (!cancelNotifications) {
            return;
        }
        notify("notifications/cancelled", Json.object().put("requestId", id).put("reason", reason))
                .whenComplete((ignored, error) -> {
                    if (error != null) {
                        log.debug("server '{}': notifications/cancelled for request {} was not delivered: {}",
                                serverName, id, error.toString());
                    }
                });
    }

    private void sendFailed(Pending request, McpTransportException cause) {
        synchronized (request) {
            if (request.abandoned) {
                // the transport let go of a request we gave up on, as asked: the connection itself is fine
                return;
            }
        }
        // taken out first, so the sweep of a lost connection below does not class it as merely in flight: the
        // transport's own verdict on this request (cause.sent()) is the precise one
        boolean own = pending.remove(request.id, request);
        // drop the connection before the caller hears of the failure, so its next request gets a fresh one
        if (endsConnection(cause)) {
            markLost(cause);
        }
        if (own) {
            request.result.completeExceptionally(failure(request.method, cause, true));
        }
    }

    private McpTransportFailure failure(String method, McpTransportException cause, boolean written) {
        return new McpTransportFailure(serverName, method, cause, written);
    }

    private static boolean endsConnection(McpTransportException cause) {
        return switch (cause.kind()) {
            case SESSION_LOST, PROCESS_EXITED, CLOSED -> true;
            default -> false;
        };
    }

    static McpTransportException asTransportException(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof McpTransportException transportException) {
            return transportException;
        }
        return new McpTransportException(McpTransportException.Kind.STREAM_BROKEN,
                "the transport failed unexpectedly: " + cause, cause);
    }

    /** Marks the connection lost once: fails everything in flight and lets the session drop it. */
    void markLost(McpTransportException cause) {
        if (!lost.compareAndSet(false, true)) {
            return;
        }
        lostCause = cause;
        // the session forgets this connection first: whoever reacts to the failures below reconnects
        events.onLost(this, cause);
        ready.completeExceptionally(failure("initialize", cause, true));
        // a request already handed to the transport may have reached the server whatever ended the connection (a
        // 404 on another POST does not unsend this one): only a request never written is certainly not sent
        for (Pending request : pending.values()) {
            if (pending.remove(request.id, request)) {
                request.result.completeExceptionally(
                        McpTransportFailure.inFlight(serverName, request.method, cause, request.written));
            }
        }
    }

    @Override
    public void onMessage(String text) {
        JsonNode message;
        try {
            message = Json.parse(text);
        } catch (JsonProcessingException e) {
            noise.warn("ignoring a message of " + text.length() + " characters that is not JSON");
            return;
        }
        if (message == null || !message.isObject()) {
            noise.warn("ignoring a message of " + text.length() + " characters that is not a JSON object");
            return;
        }
        JsonNode method = message.get("method");
        if (method != null) {
            if (!method.isTextual()) {
                noise.warn("ignoring a message whose method is not a string");
            } else if (message.hasNonNull("id")) {
                answerServerRequest(message.get("id"), method.textValue());
            } else {
                events.onNotification(this, method.textValue(), message.path("params"));
            }
            return;
        }
        onResponse(message);
    }

    private void onResponse(JsonNode message) {
        JsonNode idNode = message.get("id");
        // every id this client sends is a string (RequestIds): an answer with any other id answers nothing of ours
        String id = idNode != null && idNode.isTextual() ? idNode.textValue() : null;
        Pending request = id == null ? null : pending.remove(id);
        if (request == null) {
            if (id != null && recentlyAbandoned.contains(id)) {
                // we timed it out or cancelled it ourselves: a late answer is expected, not a server fault
                log.debug("server '{}': ignoring the late answer to abandoned request {}", serverName, id);
            } else {
                noise.warn("ignoring a response for unknown request id " + UpstreamNoise.describe(idNode));
            }
            return;
        }
        JsonNode error = message.get("error");
        if (error != null) {
            JsonNode code = error.get("code");
            if (!error.isObject() || code == null || !code.canConvertToExactIntegral()) {
                request.result.completeExceptionally(new McpProtocolException(serverName,
                        request.method + " was answered with a malformed error object: " + error));
                return;
            }
            request.result.completeExceptionally(new McpErrorResponse(serverName, request.method, code.asInt(),
                    error.path("message").asText(""), error.get("data")));
        } else if (message.has("result")) {
            request.result.complete(message.get("result"));
        } else {
            request.result.completeExceptionally(new McpProtocolException(serverName,
                    request.method + " was answered with neither result nor error"));
        }
    }

    private void answerServerRequest(JsonNode id, String method) {
        String answer = "ping".equals(method)
                ? Json.result(id, Json.object())
                : Json.error(id, McpErrorResponse.METHOD_NOT_FOUND, "Method not found: " + method);
        if (!"ping".equals(method)) {
            noise.warn("refusing an unsupported server request " + UpstreamNoise.describe(method));
        }
        try {
            transport.send(answer).whenComplete((ignored, error) -> {
                if (error != null) {
                    log.debug("server '{}': answer to {} not delivered: {}", serverName, method, error.toString());
                }
            });
        } catch (RuntimeException e) {
            log.debug("server '{}': answer to {} not delivered: {}", serverName, method, e.toString());
        }
    }

    @Override
    public void onError(McpTransportException error) {
        log.warn("server '{}': transport problem ({}): {}", serverName, error.kind(), error.getMessage());
        if (error instanceof McpMessageTooLargeException tooLarge) {
            // the discarded message may be the answer to a request: without this, the request would wait for its
            // timeout and each retry would meet the same wall
            String id = OversizedAnswers.responseId(tooLarge.head(), tooLarge.tail());
            Pending request = id == null ? null : pending.remove(id);
            if (request != null) {
                request.result.completeExceptionally(failure(request.method, tooLarge, true));
            }
        }
    }

    @Override
    public void onClosed(McpTransportException cause) {
        markLost(cause != null ? cause
                : new McpTransportException(McpTransportException.Kind.CLOSED, "the transport closed"));
    }
}
