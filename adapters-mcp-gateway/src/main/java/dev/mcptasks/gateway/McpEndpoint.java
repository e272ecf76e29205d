package dev.mcptasks.gateway;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code /mcp} endpoint behind the {@link RequestGate}: POST carries one JSON-RPC message (a 2025 message in its
 * session, or a stateless 2026 one checked against its SEP-2243 headers), GET opens or resumes a 2025 session's SSE
 * stream, DELETE ends a session. The dispatcher is called on the dispatch executor, never on an event loop, since
 * handling a message may touch the database.
 */
@ChannelHandler.Sharable
final class McpEndpoint extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(McpEndpoint.class);
    private static final Set<String> SESSION_VERSIONS = Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
    private static final String LAST_EVENT_ID = "Last-Event-ID";
    private static final Map<String, String> ONLY_POST = Map.of(HttpHeaderNames.ALLOW.toString(), "POST");

    private final FrontDispatcher dispatcher;
    private final HttpSessions sessions;
    private final HttpReplies replies;
    private final GatewaySettings.Streaming streaming;
    private final Executor dispatch;

    McpEndpoint(FrontDispatcher dispatcher, HttpSessions sessions, HttpReplies replies,
            GatewaySettings.Streaming streaming, Executor dispatch) {
        super(true);
        this.dispatcher = dispatcher;
        this.sessions = sessions;
        this.replies = replies;
        this.streaming = streaming;
        this.dispatch = dispatch;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String principal = ctx.channel().attr(RequestGate.PRINCIPAL).get();
        Reply reply = new Reply(ctx.channel(), HttpUtil.isKeepAlive(request));
        if (HttpMethod.POST.equals(request.method())) {
            post(reply, principal, request);
        } else if (ModernHeaders.MODERN_VERSION.equals(request.headers().get(ModernHeaders.PROTOCOL_VERSION))) {
            reply.error(HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "Method Not Allowed: the 2026-07-28 transport is POST only", ONLY_POST);
        } else if (HttpMethod.GET.equals(request.method())) {
            session(reply, principal, request.headers())
                    .ifPresent(session -> listen(reply, session, request.headers()));
        } else {
            session(reply, principal, request.headers()).ifPresent(session -> end(reply, session));
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
        if (ModernHeaders.isModern(headers, body)) {
            Optional<ObjectNode> mismatch = ModernHeaders.check(headers, body, kind == JsonRpc.Kind.REQUEST);
            if (mismatch.isPresent()) {
                reply.send(HttpResponseStatus.BAD_REQUEST, mismatch.get(), Map.of());
            } else if (kind == JsonRpc.Kind.REQUEST) {
                exchange(reply, new FrontRequest(principal, null, body, trace(headers)), accepts, null, true,
                        new JsonFramings.Modern());
            } else {
                deliver(reply, new FrontRequest(principal, null, body, trace(headers)));
            }
            return;
        }
        if (kind == JsonRpc.Kind.REQUEST && "initialize".equals(body.path("method").asText())) {
            HttpSession session = sessions.create(principal);
            // Answered as JSON, never as a stream: the session id must be in the head, and the session is registered
            // only once initialize succeeded, so a failed handshake leaves nothing behind.
            exchange(reply, new FrontRequest(principal, session, body), new Accepts(true, false), null, false,
                    new JsonFramings.Initialize(session, sessions, dispatcher, dispatch));
            return;
        }
        Optional<HttpSession> session = session(reply, principal, headers);
        if (session.isEmpty()) {
            return;
        }
        FrontRequest front = new FrontRequest(principal, session.get(), body, trace(headers));
        if (kind == JsonRpc.Kind.REQUEST) {
            exchange(reply, front, accepts, session.get(), false, new JsonFramings.Plain());
        } else {
            deliver(reply, front);
        }
    }

    /** The request's W3C trace context headers, or null when absent or malformed (then nothing is stored). */
    private static TraceContext trace(HttpHeaders headers) {
        return TraceContext.parse(headers.get("traceparent"), headers.get("tracestate"));
    }

    /** A request: answered as JSON or as an SSE stream by its {@link PostExchange}. */
    private void exchange(Reply reply, FrontRequest front, Accepts accepts, HttpSession streams, boolean modern,
            PostExchange.JsonFraming framing) {
        Channel channel = reply.channel();
        PostExchange exchange = new PostExchange(channel, reply.keepAlive(), replies, front.message(), streams, modern,
                accepts.eventStream(), streaming, framing);
        submit(reply, () -> {
            CompletableFuture<Optional<ObjectNode>> answer = dispatchSafely(front);
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
            SseConnection connection = SseConnection.open(reply.channel(), Map.of(), streaming.keepAliveEvery());
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
        SseConnection connection = SseConnection.open(reply.channel(), Map.of(), streaming.keepAliveEvery());
        stream.get().attach(connection, after.get().seq());
        detachOnClose(connection, stream.get(), session);
    }

    private static void detachOnClose(SseConnection connection, EventStream stream, HttpSession session) {
        connection.channel().closeFuture().addListener(closed -> {
            stream.detach(connection);
            session.touch();
        });
    }

    /** DELETE: the session ends, its streams close, and the dispatcher forgets it. */
    private void end(Reply reply, HttpSession session) {
        if (sessions.end(session)) {
            LOG.debug("session {} ended by its client", session.id());
            submit(reply, () -> dispatcher.sessionClosed(session));
        }
        reply.empty(HttpResponseStatus.OK);
    }

    /** The request's live session, or empty after answering 400 (no id, unsupported version) or 404 (unknown id). */
    private Optional<HttpSession> session(Reply reply, String principal, HttpHeaders headers) {
        HttpSessions.Lookup lookup = sessions.find(headers.get(HttpReplies.SESSION_ID), principal);
        if (lookup instanceof HttpSessions.Lookup.Missing) {
            reply.error(HttpResponseStatus.BAD_REQUEST, "Bad Request: the Mcp-Session-Id header is required "
                    + "(initialize first)", Map.of());
            return Optional.empty();
        }
        if (lookup instanceof HttpSessions.Lookup.Unknown unknown) {
            reply.send(HttpResponseStatus.NOT_FOUND, JsonRpc.error(null, JsonRpc.SESSION_NOT_FOUND,
                    "Session not found: " + unknown.id()), Map.of());
            return Optional.empty();
        }
        String version = headers.get(ModernHeaders.PROTOCOL_VERSION);
        if (version != null && !SESSION_VERSIONS.contains(version)) {
            reply.error(HttpResponseStatus.BAD_REQUEST, "Bad Request: unsupported MCP-Protocol-Version " + version
                    + " (supported: " + String.join(", ", SESSION_VERSIONS.stream().sorted().toList()) + ")", Map.of());
            return Optional.empty();
        }
        return Optional.of(((HttpSessions.Lookup.Found) lookup).session());
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
