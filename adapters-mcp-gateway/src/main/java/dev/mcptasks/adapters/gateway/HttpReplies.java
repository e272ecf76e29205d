package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Whole (non-streamed) HTTP answers: a JSON-RPC message, a JSON-RPC error with an HTTP status, or an empty status.
 * Every write is queued on the channel's event loop, so an answer from a dispatcher thread cannot overtake an earlier
 * write of the loop itself.
 */
final class HttpReplies {
    static final String SESSION_ID = "Mcp-Session-Id";
    static final String REALM = "Bearer realm=\"mcp-tasks\"";

    private final ObjectMapper mapper;

    HttpReplies(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    ObjectMapper mapper() {
        return mapper;
    }

    /** An {@code application/json} answer. */
    void json(Channel channel, boolean keepAlive, HttpResponseStatus status, ObjectNode body,
            Map<String, String> headers) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                Unpooled.wrappedBuffer(bytes(body)));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        headers.forEach(response.headers()::set);
        send(channel, keepAlive, response);
    }

    /** A JSON-RPC error (id null) as the body of a transport-level refusal. */
    void rpcError(Channel channel, boolean keepAlive, HttpResponseStatus status, int code, String message,
            Map<String, String> headers) {
        json(channel, keepAlive, status, JsonRpc.error(NullNode.getInstance(), code, message), headers);
    }

    /** A status without a body (202 for a notification, 200 for a DELETE). */
    void empty(Channel channel, boolean keepAlive, HttpResponseStatus status) {
        send(channel, keepAlive, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER));
    }

    private void send(Channel channel, boolean keepAlive, FullHttpResponse response) {
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        OnLoop.run(channel, () -> {
            var written = channel.writeAndFlush(response);
            if (!keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        });
    }

    /** One JSON-RPC message as a single line of JSON (an SSE data field, a stdio line). */
    String text(ObjectNode message) {
        return new String(bytes(message), StandardCharsets.UTF_8);
    }

    byte[] bytes(ObjectNode message) {
        try {
            return mapper.writeValueAsBytes(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written: " + e.getOriginalMessage(), e);
        }
    }
}
