package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.adapters.httpsupport.SseParser;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The wait before reconnecting a stream: the server's {@code retry:}, a default without one, a cap on absurd ones. */
class StreamStateTest {

    private static StreamState after(String events) {
        StreamState stream = new StreamState();
        SseParser parser = new SseParser(1000, new SseParser.Sink() {
            @Override
            public void onEvent(SseEvent event) {}

            @Override
            public void onOversized(long bytes) {}
        });
        parser.feed(Unpooled.wrappedBuffer(events.getBytes(StandardCharsets.UTF_8)));
        stream.update(parser);
        return stream;
    }

    @Test
    void theServersRetryIsTheWait() {
        assertThat(after("id: 1\nretry: 500\ndata: \n\n").reconnectDelayMillis()).isEqualTo(500);
        assertThat(after("retry: 0\n\n").reconnectDelayMillis()).isZero();
    }

    @Test
    void withoutARetryTheWaitIsOneSecond() {
        assertThat(after("id: 1\ndata: \n\n").reconnectDelayMillis()).isEqualTo(StreamState.DEFAULT_RETRY_MS)
                .isEqualTo(1000);
        assertThat(after("retry: soon\n\n").reconnectDelayMillis()).isEqualTo(1000);
        assertThat(after("retry: -5\n\n").reconnectDelayMillis()).isEqualTo(1000);
    }

    @Test
    void anAbsurdRetryIsCappedAtThirtySeconds() {
        assertThat(after("retry: 86400000\n\n").reconnectDelayMillis()).isEqualTo(StreamState.MAX_RETRY_MS)
                .isEqualTo(30_000);
        assertThat(after("retry: 99999999999999999999\n\n").reconnectDelayMillis()).isEqualTo(1000);
    }

    @Test
    void theLatestRetryWins() {
        assertThat(after("retry: 500\n\nretry: 20\n\n").reconnectDelayMillis()).isEqualTo(20);
    }
}
