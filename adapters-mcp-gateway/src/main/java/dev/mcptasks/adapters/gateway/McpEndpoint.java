package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.trace.TraceContext;
import io.netty.buffer.ByteBufInputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code /mcp} endpoint behind the {@link RequestGate}: POST carries one JSON-RPC message (a 2025 message in its
 * session, or a stateless 2026 one checked against its SEP-2243 headers), GET opens or resumes a 2025 session's SSE
 * stream, DELETE ends a session. The dispatcher is called on the dispatch executor, never on an event loop, since
 * handling a message may touch the database. A session id this gateway does not know is looked up in the
 * {@link StoredSessions} (on the dispatch executor too) before it is answered 404.
 */
@ChannelHandler.Sharable
final class McpEndpoint extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(McpEndpoint.class);
    private static final Set<String> SESSION_VERSIONS = Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
    private static final String LAST_EVENT_ID = "Last-Event-ID";
    private static final Map<String, String> ONLY_POST = Map.of(HttpHeaderNames.ALLOW.toString(), "POST");

    private final FrontDispatcher dispatcher;
    private final HttpSessions sessions;
    private final StoredSessions stored;
    private final HttpReplies replies;
    private final SseStreams streams;
    private final Executor dispatch;

    McpEndpoint(FrontDispatcher dispatcher, HttpSessions sessions, StoredSessions stored, HttpReplies replies,
            SseStreams streams, Executor dispatch) {
        super(true);
        this.dispatcher = dispatcher;
        this.sessions = sessions;
        this.stored = stored;
        this.replies = replies;
        this.streams = streams;
        this.dispatch = dispatch;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String principal = ctx.channel().attr(RequestGate.PRINCIPAL).get();
        Reply reply = new Reply(ctx.channel(), HttpUtil.isKeepAlive(request));
        if (HttpMethod.POST.equals(request.method())) {
            post(reply, principal, request);
        } else if (Headers2026.VERSION_2026.equals(request.headers().get(Headers2026.PROTOCOL_VERSION))) {
            reply.error(HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "Method Not Allowed: the 2026-07-28 transport is POST only", ONLY_POST);
        } else if (HttpMethod.GET.equals(request.method())) {
            HttpHeaders headers = request.headers();
            session(reply, principal, headers, session -> listen(reply, session, headers));
        } else {
            session(reply, principal, request.headers(), session -> end(reply, session));
        }
    }

    private void post(Reply reply, String principal, FullHttpRequest request) {
        HttpHeaders headers = request.headers();
        String contentType = headers.get(HttpHeaderNames.CONTENT_TYPE, "");
        if (!contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
            reply.error(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE,
                    "Unsupported Media Type: the body must be application/json", Map.of());
            return;
        }
        Accepts accepts = Accepts.of(headers.get(HttpHeaderNames.ACCEPT));
        if (!accepts.json() && !accepts.eventStream()) {
            reply.error(HttpResponseStatus.NOT_ACCEPTABLE,
                    "Not Acceptable: the client must accept application/json or text/event-stream", Map.of());
            return;
        }
        JsonNode message;
        try {
            message = replies.mapper().readTree(new ByteBufInputStream(request.content()));
        } catch (IOException e) {
            reply.send(HttpResponseStatus.BAD_REQUEST, JsonRpc.error(null, JsonRpc.PARSE_ERROR,
                    "Parse error: the body is not valid JSON"), Map.of());
            return;
        }
        if (message != null && message.isArray()) {
            reply.send(HttpResponseStatus.BAD_REQUEST, JsonRpc.error(null, JsonRpc.INVALID_REQUEST,
                    "Invalid Request: batches are not supported, send one JSON-RPC message per POST"), Map.of());
            return;
        }
        if (message == null || message.isMissingNode()) {
            reply.send(HttpResponseStatus.BAD_REQUEST, JsonRpc.error(null, JsonRpc.PARSE_ERROR,
                    "Parse error: the body is empty"), Map.of());
            return;
        }
        JsonRpc.Kind kind = JsonRpc.kind(message);
        if (kind == JsonRpc.Kind.INVALID) {
            reply.send(HttpResponseStatus.BAD_REQUEST, JsonRpc.error(JsonRpc.idOf(message), JsonRpc.INVALID_REQUEST,
                    "Invalid Request: the body is not one JSON-RPC 2.0 request, notification or response"), Map.of());
            return;
        }
        ObjectNode body = (ObjectNode) message;
        if (Headers2026.is2026(headers, body)) {
            Optional<ObjectNode> mismatch = Headers2026.check(headers, body, kind == JsonRpc.Kind.REQUEST);
            if (mismatch.isPresent()) {
                reply.send(HttpResponseStatus.BAD_REQUEST, mismatch.get(), Map.of());
            } else if (kind == JsonRpc.Kind.REQUEST) {
                exchange(reply, new FrontRequest(principal, null, body, trace(headers)), accepts, null, true,
                        new JsonFramings.Of2026(), null);
            } else {
                deliver(reply, new FrontRequest(principal, null, body, trace(headers)));
            }
            return;
        }
        if (kind == JsonRpc.Kind.REQUEST && "initialize".equals(body.path("method").asText())) {
            HttpSession session = sessions.create(principal);
            // Answered as JSON, never as a stream: the session id must be in the head, and the session is registered
            // only once initialize succeeded (and was stored), so a failed handshake leaves nothing behind.
            exchange(reply, new FrontRequest(principal, session, body), new Accepts(true, false), null, false,
                    new JsonFramings.Initialize(session, sessions, evicted -> ended(evicted, true),
                            refused -> ended(refused, false)),
                    answer -> saved(session, body, answer));
            return;
        }
        session(reply, principal, headers, session -> {
            FrontRequest front = new FrontRequest(principal, session, body, trace(headers));
            if (kind == JsonRpc.Kind.REQUEST) {
                exchange(reply, front, accepts, session, false, new JsonFramings.Plain(), null);
            } else {
                deliver(reply, front);
            }
        });
    }

    /**
     * A successful {@code initialize}'s session is stored before the answer names it, so that the client's next
     * request finds it on any gateway; when the store fails, the initialize fails (nothing is handed out that a
     * restart would lose).
     */
    private Optional<ObjectNode> saved(HttpSession session, ObjectNode initialize, Optional<ObjectNode> answer) {
        if (answer.isEmpty() || !answer.get().has("result")) {
            return answer;
        }
        try {
            stored.save(session, initialize, answer.get());
            return answer;
        } catch (RuntimeException e) {
            LOG.warn("gateway: cannot store a new session of '{}': {}", session.principal(), FrontCatalog.oneLine(e));
            return Optional.of(JsonRpc.error(JsonRpc.idOf(initialize), JsonRpc.INTERNAL_ERROR,
                    "the session store is unavailable: " + FrontCatalog.oneLine(e)));
        }
    }

    /** The request's W3C trace context headers, or null when absent or malformed (then nothing is stored). */
    private static TraceContext trace(HttpHeaders headers) {
        return TraceContext.parse(headers.get("traceparent"), headers.get("tracestate"));
    }

    /**
     * A request: answered as JSON or as an SSE stream by its {@link PostExchange}; {@code then}, when not null, turns
     * the dispatcher's answer into the one sent (off the event loop), and the exchange's cancel still reaches the
     * dispatcher.
     */
    private void exchange(Reply reply, FrontRequest front, Accepts accepts, HttpSession session, boolean is2026,
            PostExchange.JsonFraming framing, Function<Optional<ObjectNode>, Optional<ObjectNode>> then) {
        Channel channel = reply.channel();
        PostExchange exchange = new PostExchange(channel, reply.keepAlive(), replies, front.message(), session, is2026,
                accepts.eventStream(), streams, framing);
        FrontRequest request = is2026 ? new FrontRequest(front.principal(), null, front.message(), front.trace(),
                exchange.requestStream()) : front;
        submit(reply, () -> {
            CompletableFuture<Optional<ObjectNode>> dispatched = dispatchSafely(request);
            CompletableFuture<Optional<ObjectNode>> answer = then == null ? dispatched : dispatched.thenApply(then);
            if (answer != dispatched) {
                answer.whenComplete((result, failure) -> {
                    if (failure instanceof CancellationException) {
                        dispatched.cancel(false);
                    }
                });
            }
            OnLoop.run(channel, () -> exchange.dispatched(answer));
            answer.whenComplete((result, failure) ->
                    OnLoop.run(channel, () -> exchange.answered(result, failure)));
        });
    }

    /**
     * A notification or a response: 202 once the dispatcher has taken it, so that a client's next message (e.g.
     * after {@code notifications/initialized}) cannot overtake it.
     */
    private void deliver(Reply reply, FrontRequest front) {
        submit(reply, () -> {
            dispatchSafely(front);
            reply.empty(HttpResponseStatus.ACCEPTED);
        });
    }

    private void submit(Reply reply, Runnable work) {
        try {
            dispatch.execute(work);
        } catch (RejectedExecutionException e) {
            reply.error(HttpResponseStatus.SERVICE_UNAVAILABLE, "Service Unavailable: the gateway is stopping",
                    Map.of());
        }
    }

    private CompletableFuture<Optional<ObjectNode>> dispatchSafely(FrontRequest front) {
        try {
            CompletableFuture<Optional<ObjectNode>> answer = dispatcher.dispatch(front);
            return answer == null ? CompletableFuture.completedFuture(Optional.empty()) : answer;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** GET: resume a stream after {@code Last-Event-ID}, or open the session's notification stream. */
    private void listen(Reply reply, HttpSession session, HttpHeaders headers) {
        if (!Accepts.of(headers.get(HttpHeaderNames.ACCEPT)).eventStream()) {
            reply.error(HttpResponseStatus.NOT_ACCEPTABLE, "Not Acceptable: the client must accept text/event-stream",
                    Map.of());
            return;
        }
        String lastEventId = headers.get(LAST_EVENT_ID);
        if (lastEventId == null) {
            SseConnection connection = streams.open(reply.channel());
            session.listen(connection).ifPresentOrElse(
                    stream -> detachOnClose(connection, stream, session), connection::end);
            return;
        }
        Optional<EventId> after = EventId.parse(lastEventId);
        Optional<EventStream> stream = after.flatMap(id -> session.stream(id.stream()));
        if (stream.isEmpty()) {
            reply.error(HttpResponseStatus.BAD_REQUEST, "Bad Request: Last-Event-ID " + lastEventId
                    + " names no stream of this session", Map.of());
            return;
        }
        if (!stream.get().resumable()) {
            // its events were let go to bound memory (the answer lives on in the store: ask again)
            reply.error(HttpResponseStatus.NOT_FOUND, "Not Found: the events of stream " + after.get().stream()
                    + " are no longer kept; send the request again (tasks/result answers from the store)", Map.of());
            return;
        }
        SseConnection connection = streams.open(reply.channel());
        stream.get().attach(connection, after.get().seq());
        detachOnClose(connection, stream.get(), session);
    }

    private static void detachOnClose(SseConnection connection, EventStream stream, HttpSession session) {
        connection.channel().closeFuture().addListener(closed -> {
            stream.detach(connection);
            session.touch();
        });
    }

    /** DELETE: the session ends, its streams close, the dispatcher forgets it, and so does the store. */
    private void end(Reply reply, HttpSession session) {
        if (sessions.end(session)) {
            LOG.debug("session {} ended by its client", session.id());
            submit(reply, () -> {
                dispatcher.sessionClosed(session);
                stored.forget(session);
            });
        }
        reply.empty(HttpResponseStatus.OK);
    }

    /** The dispatcher (and, when {@code forget}, the store) hears that {@code session} ended. */
    private void ended(HttpSession session, boolean forget) {
        try {
            dispatch.execute(() -> {
                dispatcher.sessionClosed(session);
                if (forget) {
                    stored.forget(session);
                }
            });
        } catch (RejectedExecutionException stopping) {
            // the gateway is stopping and tells the dispatcher about every session anyway
        }
    }

    /**
     * Runs {@code then} with the request's session, or answers 400 (no id, unsupported version), 404 (an id neither
     * live here nor stored for this principal: the same answer for another principal's id) or 503 (the store
     * failed). An id this gateway does not know is looked up in the store on the dispatch executor, and the session
     * is served again under it when it is the caller's; {@code then} runs on the channel's event loop either way.
     */
    private void session(Reply reply, String principal, HttpHeaders headers, Consumer<HttpSession> then) {
        HttpSessions.Lookup lookup = sessions.find(headers.get(HttpReplies.SESSION_ID), principal);
        if (lookup instanceof HttpSessions.Lookup.Missing) {
            reply.error(HttpResponseStatus.BAD_REQUEST, "Bad Request: the Mcp-Session-Id header is required "
                    + "(initialize first)", Map.of());
            return;
        }
        if (lookup instanceof HttpSessions.Lookup.Found found) {
            if (stored.touchDue(found.session())) {
                submit(reply, () -> used(reply, headers, found.session(), then));
            } else {
                inSession(reply, headers, found.session(), then);
            }
            return;
        }
        String id = ((HttpSessions.Lookup.Unknown) lookup).id();
        if (!stored.durable()) {
            notFound(reply, id);
            return;
        }
        submit(reply, () -> {
            Optional<HttpSession> restored;
            try {
                restored = restore(id, principal);
            } catch (RuntimeException e) {
                LOG.warn("gateway: cannot look session {} up in the store: {}", id, FrontCatalog.oneLine(e));
                OnLoop.run(reply.channel(), () -> reply.error(HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "Service Unavailable: the session store is unavailable, retry", Map.of()));
                return;
            }
            OnLoop.run(reply.channel(), () -> restored.ifPresentOrElse(
                    session -> inSession(reply, headers, session, then), () -> notFound(reply, id)));
        });
    }

    /** On the dispatch executor: the stored session {@code id} of {@code principal}, live again here. */
    private Optional<HttpSession> restore(String id, String principal) {
        if (stored.find(id, principal).isEmpty()) {
            return Optional.empty();
        }
        HttpSessions.Restored restored = sessions.restore(id, principal);
        restored.evicted().ifPresent(evicted -> ended(evicted, true));
        stored.restored(restored.session());
        LOG.debug("session {} of '{}' restored from the store", id, principal);
        return Optional.of(restored.session());
    }

    /**
     * On the dispatch executor, at most about once a minute per session: writes the session's last use, then goes on
     * with the request. A session the store no longer holds (a DELETE on another gateway, or expired there) ends here
     * too, and the request is answered 404 as after a DELETE here.
     */
    private void used(Reply reply, HttpHeaders headers, HttpSession session, Consumer<HttpSession> then) {
        boolean there = stored.touch(session);
        if (!there && sessions.end(session)) {
            LOG.debug("session {} is no longer in the store: ended here too", session.id());
            dispatcher.sessionClosed(session);
        }
        OnLoop.run(reply.channel(), () -> {
            if (there) {
                inSession(reply, headers, session, then);
            } else {
                notFound(reply, session.id());
            }
        });
    }

    private void inSession(Reply reply, HttpHeaders headers, HttpSession session, Consumer<HttpSession> then) {
        String version = headers.get(Headers2026.PROTOCOL_VERSION);
        if (version != null && !SESSION_VERSIONS.contains(version)) {
            reply.error(HttpResponseStatus.BAD_REQUEST, "Bad Request: unsupported MCP-Protocol-Version " + version
                    + " (supported: " + String.join(", ", SESSION_VERSIONS.stream().sorted().toList()) + ")", Map.of());
            return;
        }
        then.accept(session);
    }

    private void notFound(Reply reply, String id) {
        reply.send(HttpResponseStatus.NOT_FOUND, JsonRpc.error(null, JsonRpc.SESSION_NOT_FOUND,
                "Session not found: " + id), Map.of());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing a gateway connection after {}", cause.toString());
        ctx.close();
    }

    /** The connection a request came on and how to answer on it. */
    private final class Reply {
        private final Channel channel;
        private final boolean keepAlive;

        Reply(Channel channel, boolean keepAlive) {
            this.channel = channel;
            this.keepAlive = keepAlive;
        }

        Channel channel() {
            return channel;
        }

        boolean keepAlive() {
            return keepAlive;
        }

        void send(HttpResponseStatus status, ObjectNode body, Map<String, String> headers) {
            replies.json(channel, keepAlive, status, body, headers);
        }

        void error(HttpResponseStatus status, String message, Map<String, String> headers) {
            replies.rpcError(channel, keepAlive, status, JsonRpc.TRANSPORT_ERROR, message, headers);
        }

        void empty(HttpResponseStatus status) {
            replies.empty(channel, keepAlive, status);
        }
    }

    /** What the client's {@code Accept} header admits; an absent header admits everything. */
    record Accepts(boolean json, boolean eventStream) {
        static Accepts of(String accept) {
            if (accept == null || accept.isBlank()) {
                return new Accepts(true, false);
            }
            String value = accept.toLowerCase(Locale.ROOT);
            boolean any = value.contains("*/*");
            return new Accepts(any || value.contains("application/json") || value.contains("application/*"),
                    value.contains("text/event-stream"));
        }
    }

    /** A resumable stream's event id, {@code <stream>-<seq>}. */
    record EventId(int stream, long seq) {
        static Optional<EventId> parse(String value) {
            int dash = value.indexOf('-');
            try {
                return dash < 0 ? Optional.empty() : Optional.of(new EventId(Integer.parseInt(
                        value.substring(0, dash).trim()), Long.parseLong(value.substring(dash + 1).trim())));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }
}
