package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.http.ScriptedHttpPeer.Mode;
import dev.mcptasks.adapters.http.ScriptedHttpPeer.StoredEvent;
import dev.mcptasks.testkit.transport.JsonMembers;
import dev.mcptasks.testkit.transport.ScriptedPeer;
import dev.mcptasks.testkit.transport.ScriptedPeer.Action;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Answers one connection's requests for {@link ScriptedHttpPeer}. */
final class ScriptedHttpPeerHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    /** HTTP-only script method: a priming event, then the connection is cut; the echo waits in the event store. */
    static final String BREAK_AFTER_PRIMING = "breakAfterPriming";
    /** HTTP-only script method: a notification on the GET stream, then the echo. */
    static final String PUSH_ON_GET = "pushOnGet";

    private final ScriptedHttpPeer peer;

    ScriptedHttpPeerHandler(ScriptedHttpPeer peer) {
        this.peer = peer;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        String body = request.content().toString(StandardCharsets.UTF_8);
        peer.requests.add(new ScriptedHttpPeer.Seen(request.method().name(), request.uri(), request.headers().copy(),
                body));
        String session = request.headers().get(SessionHeaders.SESSION_ID);
        if (session != null && !peer.sessions.contains(session)) {
            if (peer.everythingQuirk) {
                respond(ctx, HttpResponseStatus.BAD_REQUEST, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,"
                        + "\"message\":\"Bad Request: No valid session ID provided\"},\"id\":null}", null);
            } else {
                respond(ctx, HttpResponseStatus.NOT_FOUND, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,"
                        + "\"message\":\"Session not found\"},\"id\":null}", null);
            }
            return;
        }
        if (request.method().equals(HttpMethod.DELETE)) {
            peer.sessions.remove(session);
            peer.deleted.add(String.valueOf(session));
            respond(ctx, HttpResponseStatus.OK, "", null);
        } else if (request.method().equals(HttpMethod.GET)) {
            get(ctx, request, session);
        } else {
            post(ctx, request, body, session);
        }
    }

    private void get(ChannelHandlerContext ctx, FullHttpRequest request, String session) {
        if (!request.headers().get(HttpHeaderNames.ACCEPT, "").contains("text/event-stream")) {
            respond(ctx, HttpResponseStatus.NOT_ACCEPTABLE, "", null);
            return;
        }
        String lastEventId = request.headers().get(Requests.LAST_EVENT_ID);
        if (lastEventId != null) {
            // like server-everything: replay every stored event of every stream, then end
            startSse(ctx, session);
            for (StoredEvent event : peer.events) {
                event(ctx, event.id(), event.data());
            }
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
            return;
        }
        if (peer.mode == Mode.JSON || !peer.getStream) {
            respond(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "", session);
            return;
        }
        startSse(ctx, session);
        ctx.flush();
        peer.getStreams.put(String.valueOf(session), ctx.channel());
        peer.getStreamOpened.add(String.valueOf(session));
    }

    private void post(ChannelHandlerContext ctx, FullHttpRequest request, String body, String session) {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT, "");
        if (!accept.contains("application/json") || !accept.contains("text/event-stream")) {
            respond(ctx, HttpResponseStatus.NOT_ACCEPTABLE, "", session);
            return;
        }
        if (session == null) {
            session = UUID.randomUUID().toString();
            peer.sessions.add(session);
        }
        String method = ScriptedHttpPeer.methodOf(body);
        String id = JsonMembers.of(body).get("id");
        if (method == null || id == null) {
            respond(ctx, HttpResponseStatus.ACCEPTED, "", session);
        } else if (method.equals(BREAK_AFTER_PRIMING)) {
            startSse(ctx, session);
            ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer("id: " + peer.nextEventId() + "\nretry: "
                    + peer.retryMs + "\ndata: \n\n", StandardCharsets.UTF_8)));
            peer.events.add(new StoredEvent(peer.nextEventId(), ScriptedPeer.echo(id, "{}")));
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else if (method.equals(PUSH_ON_GET)) {
            var stream = peer.getStreams.get(session);
            if (stream != null) {
                stream.writeAndFlush(eventContent(null, ScriptedPeer.notification(id)));
            }
            answer(ctx, session, List.of(new Action.Emit(ScriptedPeer.echo(id, "{}"))));
        } else {
            answer(ctx, session, peer.script.handle(body));
        }
    }

    private void answer(ChannelHandlerContext ctx, String session, List<Action> actions) {
        List<String> emits = new ArrayList<>();
        boolean malformed = false;
        for (Action action : actions) {
            if (action instanceof Action.Emit emit) {
                emits.add(emit.json());
            } else if (action instanceof Action.EmitMalformed) {
                malformed = true;
            } else if (action instanceof Action.Hang) {
                if (peer.mode == Mode.SSE) {
                    startSse(ctx, session);
                    ctx.flush();
                }
                return;
            } else if (action instanceof Action.Fail fail) {
                respond(ctx, HttpResponseStatus.valueOf(fail.status()), "{\"error\":\"scripted failure\"}", session);
                return;
            } else if (action instanceof Action.DropSession) {
                peer.sessions.remove(session);
            }
        }
        if (peer.mode == Mode.JSON) {
            respond(ctx, HttpResponseStatus.OK, malformed ? "this is not json" : emits.get(emits.size() - 1), session);
            return;
        }
        startSse(ctx, session);
        String priming = peer.nextEventId();
        ctx.write(new DefaultHttpContent(Unpooled.copiedBuffer(": a comment\nid: " + priming + "\nretry: "
                + peer.retryMs + "\ndata: \n\n", StandardCharsets.UTF_8)));
        if (malformed) {
            event(ctx, null, "this is not json");
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        for (String json : emits) {
            String eventId = peer.nextEventId();
            peer.events.add(new StoredEvent(eventId, json));
            event(ctx, eventId, json);
        }
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    }

    private static void startSse(ChannelHandlerContext ctx, String session) {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
        response.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        if (session != null) {
            response.headers().set(SessionHeaders.SESSION_ID, session);
        }
        ctx.write(response);
    }

    private static void event(ChannelHandlerContext ctx, String id, String data) {
        ctx.write(eventContent(id, data));
    }

    private static DefaultHttpContent eventContent(String id, String data) {
        String text = "event: message\n" + (id == null ? "" : "id: " + id + "\n") + "data: " + data + "\n\n";
        return new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    private static void respond(ChannelHandlerContext ctx, HttpResponseStatus status, String body, String session) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        if (!body.isEmpty()) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.getBytes(StandardCharsets.UTF_8).length);
        if (session != null) {
            response.headers().set(SessionHeaders.SESSION_ID, session);
        }
        ctx.writeAndFlush(response);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        peer.getStreams.values().remove(ctx.channel());
        peer.connections.remove(ctx.channel());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
