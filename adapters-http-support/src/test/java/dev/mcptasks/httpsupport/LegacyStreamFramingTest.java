package dev.mcptasks.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The 2024-11-05 stream's framing, as the legacy transport reads it: event types, data lines, comments, every line
 * end, bounds, and splits anywhere.
 */
class LegacyStreamFramingTest {
    private final List<SseEvent> events = new ArrayList<>();
    private final List<Long> oversized = new ArrayList<>();
    private final SseParser.Sink sink = new SseParser.Sink() {
        @Override
        public void onEvent(SseEvent event) {
            events.add(event);
        }

        @Override
        public void onOversized(long bytes) {
            oversized.add(bytes);
        }
    };

    private void feed(int max, String... chunks) {
        SseParser parser = new SseParser(max, sink);
        for (String chunk : chunks) {
            parser.feed(Unpooled.wrappedBuffer(chunk.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void endpointThenMessagesWithTheDefaultType() {
        feed(1000, "event: endpoint\ndata: /message?sessionId=abc\n\n", ": ping\n",
                "event: message\ndata: {\"a\":\ndata:1}\n\n", "data: second\n\n");

        assertThat(events).containsExactly(new SseEvent(null, "endpoint", "/message?sessionId=abc"),
                new SseEvent(null, "message", "{\"a\":\n1}"),
                new SseEvent(null, "message", "second"));
    }

    @Test
    void emptyDataIsNotDispatchedAndUnknownFieldsAreIgnored() {
        feed(1000, "event: endpoint\ndata: \n\n", "id: 3\nretry: 10\nfoo: bar\ndata\ndata: x\n\n");

        assertThat(events).containsExactly(new SseEvent("3", "message", "\nx"));
    }

    @Test
    void crLfAndCrLineEndsSplitAtEveryByte() {
        String stream = "event: message\r\ndata: h\u00e9llo\r\rdata: two\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            events.clear();
            SseParser parser = new SseParser(1000, sink);
            parser.feed(Unpooled.wrappedBuffer(bytes, 0, cut));
            parser.feed(Unpooled.wrappedBuffer(bytes, cut, bytes.length - cut));

            assertThat(events).as("cut at " + cut).containsExactly(new SseEvent(null, "message", "h\u00e9llo"),
                    new SseEvent(null, "message", "two"));
        }
    }

    @Test
    void anOversizedEventIsDiscardedAndReportedAndTheNextOneArrives() {
        feed(100, "data: " + "x".repeat(60) + "\n", "data: " + "y".repeat(60) + "\n\n", "data: " + "z".repeat(500),
                "\n\ndata: ok\n\n");

        assertThat(oversized).hasSize(2);
        assertThat(oversized.get(0)).isGreaterThan(100);
        assertThat(oversized.get(1)).isGreaterThanOrEqualTo(500);
        assertThat(events).containsExactly(new SseEvent(null, "message", "ok"));
    }

    @Test
    void dataJustAtTheBoundIsDelivered() {
        feed(100, "data: " + "x".repeat(100) + "\n\n");

        assertThat(oversized).isEmpty();
        assertThat(events).containsExactly(new SseEvent(null, "message", "x".repeat(100)));
    }
}
