package dev.mcptasks.adapters.gateway;

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
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One {@code text/event-stream} response on one connection. Every write, from whatever thread, is queued as a task on
 * the channel's event loop, so writes keep the order in which they were issued (a direct write from the loop would
 * overtake tasks queued earlier by other threads) and {@link #ended} is confined to the loop. The connection closes
 * with the stream: an SSE response is never followed by another request on the same connection.
 */
final class SseConnection {
    private static final String COMMENT = ": keepalive\n\n";

    private final Channel channel;
    private boolean ended;
    private ScheduledFuture<?> comments;

    private SseConnection(Channel channel) {
        this.channel = channel;
    }

    /** Writes the response head at once and then a keep-alive comment every {@code keepAliveEvery} (zero: never). */
    static SseConnection open(Channel channel, Map<String, String> headers, Duration keepAliveEvery) {
        SseConnection connection = new SseConnection(channel);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream");
        head.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        headers.forEach(head.headers()::set);
        OnLoop.run(channel, () -> {
            channel.writeAndFlush(head);
            long every = keepAliveEvery.toMillis();
            if (every > 0) {
                connection.comments = channel.eventLoop().scheduleAtFixedRate(connection::comment, every, every,
                        TimeUnit.MILLISECONDS);
            }
        });
        // close listeners run on the channel's event loop, where the comment timer lives
        channel.closeFuture().addListener(closed -> connection.stopComments());
        return connection;
    }

    Channel channel() {
        return channel;
    }

    /** Writes one complete event (its text ends with a blank line); dropped once the stream ended. */
    void write(String event) {
        OnLoop.run(channel, () -> {
            if (!ended && channel.isActive()) {
                channel.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(event, StandardCharsets.UTF_8)));
            }
        });
    }

    /** Ends the stream (the last chunk) and closes the connection. */
    void end() {
        OnLoop.run(channel, () -> {
            if (!ended) {
                ended = true;
                stopComments();
                if (channel.isActive()) {
                    channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
                }
            }
        });
    }

    private void comment() {
        if (!ended && channel.isActive()) {
            channel.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(COMMENT, StandardCharsets.UTF_8)));
        }
    }

    private void stopComments() {
        if (comments != null) {
            comments.cancel(false);
            comments = null;
        }
    }
}
