package dev.mcptasks.adapters.gateway;

import io.netty.channel.Channel;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens the gateway's SSE responses (GET notification streams, resumed streams, answers streamed to a POST) with the
 * streaming settings, and counts those open now for the operator. A stream counts from its response head until its
 * connection closes: an SSE response is never followed by another request on its connection, so the connection's
 * close is the one end of every stream, whichever side ended it.
 */
final class SseStreams {
    private final GatewaySettings.Streaming settings;
    private final AtomicInteger open = new AtomicInteger();

    SseStreams(GatewaySettings.Streaming settings) {
        this.settings = settings;
    }

    GatewaySettings.Streaming settings() {
        return settings;
    }

    /** Writes an SSE response head on {@code channel} and counts the stream until the channel closes. */
    SseConnection open(Channel channel) {
        // counted before its head is written, so a client that has read the head sees the stream counted
        open.incrementAndGet();
        SseConnection connection = SseConnection.open(channel, Map.of(), settings.keepAliveEvery());
        // runs at once when the channel already closed, so every stream counted is uncounted once
        channel.closeFuture().addListener(closed -> open.decrementAndGet());
        return connection;
    }

    /** The SSE streams open now. */
    int open() {
        return open.get();
    }
}
