package dev.mcptasks.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
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

/** Writes the one HTTP response to one request on its channel (from any thread). */
final class HttpReply {
  private final Channel channel;
  private final ObjectMapper mapper;
  private final boolean keepAlive;

  HttpReply(Channel channel, ObjectMapper mapper, boolean keepAlive) {
    this.channel = channel;
    this.mapper = mapper;
    this.keepAlive = keepAlive;
  }

  void plain(HttpResponseStatus status, String text) {
    send(status, Unpooled.copiedBuffer(text, StandardCharsets.UTF_8), "text/plain; charset=utf-8", null);
  }

  void accepted() {
    send(HttpResponseStatus.ACCEPTED, Unpooled.EMPTY_BUFFER, null, null);
  }

  void methodNotAllowed() {
    FullHttpResponse response = response(HttpResponseStatus.METHOD_NOT_ALLOWED, Unpooled.EMPTY_BUFFER, null, null);
    response.headers().set(HttpHeaderNames.ALLOW, "POST, GET, DELETE");
    write(response);
  }

  /** The 2026-07-28 answer to GET and DELETE: there are no sessions and no GET stream, only POST. */
  void onlyPostAllowed() {
    FullHttpResponse response = response(HttpResponseStatus.METHOD_NOT_ALLOWED, bytes(JsonRpc.error(null, -32000,
        "Method not allowed.")), "application/json", null);
    response.headers().set(HttpHeaderNames.ALLOW, "POST");
    write(response);
  }

  /** A JSON-RPC error with a null id, the body SDK servers send with transport-level 4xx answers. */
  void rpcError(HttpResponseStatus status, int code, String message) {
    json(status, JsonRpc.error(null, code, message), null);
  }

  void json(ObjectNode message, String sessionId) {
    json(HttpResponseStatus.OK, message, sessionId);
  }

  SseStream openSse(String sessionId, long retryMs, long commentEveryMs) {
    return SseStream.open(channel, mapper, keepAlive, sessionId, retryMs, commentEveryMs);
  }

  /** An SSE stream on this channel whose head is sent later by {@link SseStream#start}. */
  SseStream unstartedSse() {
    return SseStream.unstarted(channel, mapper, keepAlive);
  }

  void onClose(Runnable action) {
    channel.closeFuture().addListener(done -> action.run());
  }

  void json(HttpResponseStatus status, ObjectNode message, String sessionId) {
    send(status, bytes(message), "application/json", sessionId);
  }

  private ByteBuf bytes(ObjectNode message) {
    try {
      return Unpooled.wrappedBuffer(mapper.writeValueAsBytes(message));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JsonNode tree could not be written", e);
    }
  }

  private void send(HttpResponseStatus status, ByteBuf body, String contentType, String sessionId) {
    write(response(status, body, contentType, sessionId));
  }

  private FullHttpResponse response(HttpResponseStatus status, ByteBuf body, String contentType, String sessionId) {
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
    if (contentType != null) {
      response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }
    if (sessionId != null) {
      response.headers().set(HttpTransportHeaders.SESSION_ID, sessionId);
    }
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    if (!keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return response;
  }

  private void write(FullHttpResponse response) {
    var done = channel.writeAndFlush(response);
    if (!keepAlive) {
      done.addListener(ChannelFutureListener.CLOSE);
    }
  }
}
