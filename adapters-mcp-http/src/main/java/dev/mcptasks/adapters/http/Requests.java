package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.adapters.httpsupport.HttpTarget;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * Builds the three requests Streamable HTTP uses, each with the configured and session headers and the
 * {@code Authorization} header of the moment ({@link HttpAuth#apply}): {@code retry}, when not null, is the header a
 * challenge's answer named for sending a refused request again.
 */
final class Requests {
    static final String ACCEPT_BOTH = "application/json, text/event-stream";
    static final String LAST_EVENT_ID = "Last-Event-ID";

    private final HttpTarget endpoint;
    private final SessionHeaders sessions;
    private final HttpAuth auth;

    Requests(HttpTarget endpoint, SessionHeaders sessions, HttpAuth auth) {
        this.endpoint = endpoint;
        this.sessions = sessions;
        this.auth = auth;
    }

    /**
     * One JSON-RPC message; a 2026-07-28 request ({@code frame} not null) carries its headers and no session, a traced
     * one ({@code trace} not null) its W3C trace headers.
     */
    FullHttpRequest post(String message, Frame2026 frame, TraceHeaders trace, String retry) {
        FullHttpRequest request = base(HttpMethod.POST, message, frame, retry);
        if (trace != null) {
            trace.applyTo(request.headers());
        }
        request.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        request.headers().set(HttpHeaderNames.ACCEPT, ACCEPT_BOTH);
        return request;
    }

    /** The listening stream, or the resumption of a broken one when {@code lastEventId} is set. */
    FullHttpRequest get(String lastEventId, String retry) {
        FullHttpRequest request = base(HttpMethod.GET, null, null, retry);
        request.headers().set(HttpHeaderNames.ACCEPT, HttpHeaderValues.TEXT_EVENT_STREAM);
        if (lastEventId != null) {
            request.headers().set(LAST_EVENT_ID, lastEventId);
        }
        return request;
    }

    /** Ends the session. */
    FullHttpRequest delete(String retry) {
        return base(HttpMethod.DELETE, null, null, retry);
    }

    private FullHttpRequest base(HttpMethod method, String body, Frame2026 frame, String retry) {
        FullHttpRequest request = body == null
                ? new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, endpoint.pathAndQuery(), Unpooled.EMPTY_BUFFER)
                : new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, endpoint.pathAndQuery(),
                        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        if (frame == null) {
            sessions.applyTo(request.headers());
        } else {
            // the 2026-07-28 generation has no sessions: only the configured headers, and the frame's own
            sessions.applyConfiguredTo(request.headers());
            frame.applyTo(request.headers());
        }
        auth.apply(request.headers(), retry);
        request.headers().set(HttpHeaderNames.HOST, endpoint.hostHeader());
        request.headers().set(HttpHeaderNames.USER_AGENT, "mcp-tasks");
        if (body != null || method != HttpMethod.GET) {
            request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, request.content().readableBytes());
        }
        return request;
    }
}
