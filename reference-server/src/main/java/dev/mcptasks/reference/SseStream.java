package dev.mcptasks.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One {@code text/event-stream} response on a channel: a priming event (id, {@code retry:}, empty data), then
 * {@code event: message} events each carrying one JSON-RPC message. Writes may come from any thread; Netty orders
 * them behind the earlier ones.
 */
final class SseStream implements Consumer<ObjectNode>, AutoCloseable {
  private final Channel channel;
  private final ObjectMapper mapper;
  private final boolean keepAlive;

  private SseStream(Channel channel, ObjectMapper mapper, boolean keepAlive) {
    this.channel = channel;
    this.mapper = mapper;
    this.keepAlive = keepAlive;
  }

  /** Sends the response head and the priming event. */
  static SseStream open(Channel channel, ObjectMapper mapper, boolean keepAlive, String sessionId, long retryMs) {
    SseStream stream = new SseStream(channel, mapper, keepAlive);
    stream.start(sessionId, retryMs);
    return stream;
  }

  /** A stream whose head is not sent yet; {@link #start} must follow on the channel's event loop. */
  static SseStream unstarted(Channel channel, ObjectMapper mapper, boolean keepAlive) {
    return new SseStream(channel, mapper, keepAlive);
  }

  /**
   * Sends the response head and the priming event. Called on the event loop, so events written meanwhile from other
   * threads are queued behind it.
   */
  void start(String sessionId, long retryMs) {
    HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
    head.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
    head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    if (sessionId != null) {
      head.headers().set(HttpTransportHeaders.SESSION_ID, sessionId);
    }
    channel.write(head);
    String priming = "id: " + UUID.randomUUID() + "\nretry: " + retryMs + "\ndata: \n\n";
    channel.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(priming, StandardCharsets.UTF_8)));
  }

  /** Writes one message event; dropped once the channel is closed. */
  @Override
  public void accept(ObjectNode message) {
    if (channel.isActive()) {
      channel.writeAndFlush(new DefaultHttpContent(event(channel.alloc(), message)));
    }
  }

  /** Writes the last message and ends the stream (the response to the POST that opened it). */
  void finish(ObjectNode message) {
    if (!channel.isActive()) {
      return;
    }
    channel.write(new DefaultHttpContent(event(channel.alloc(), message)));
    var done = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    if (!keepAlive) {
      done.addListener(ChannelFutureListener.CLOSE);
    }
  }

  /** Ends the stream and the connection (the session ended). */
  @Override
  public void close() {
    if (channel.isActive()) {
      channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
    }
  }

  private ByteBuf event(ByteBufAllocator alloc, ObjectNode message) {
    byte[] json;
    try {
      json = mapper.writeValueAsBytes(message);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JsonNode tree could not be written", e);
    }
    byte[] head = ("event: message\nid: " + UUID.randomUUID() + "\ndata: ").getBytes(StandardCharsets.UTF_8);
    ByteBuf buf = alloc.buffer(head.length + json.length + 2);
    buf.writeBytes(head).writeBytes(json).writeByte('\n').writeByte('\n');
    return buf;
  }
}
