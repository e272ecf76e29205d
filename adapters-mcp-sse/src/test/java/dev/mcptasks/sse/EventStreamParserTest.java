package dev.mcptasks.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The legacy stream's framing: event types, data lines, comments, every line end, bounds, and splits anywhere. */
class EventStreamParserTest {
    private final List<EventStreamParser.Event> events = new ArrayList<>();
    private final List<Long> oversized = new ArrayList<>();
    private final EventStreamParser.Sink sink = new EventStreamParser.Sink() {
        @Override
        public void onEvent(EventStreamParser.Event event) {
            events.add(event);
        }

        @Override
        public void onOversized(long bytes) {
            oversized.add(bytes);
        }
    };

    private void feed(int max, String... chunks) {
        EventStreamParser parser = new EventStreamParser(max, sink);
        for (String chunk : chunks) {
            parser.feed(Unpooled.wrappedBuffer(chunk.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void endpointThenMessagesWithTheDefaultType() {
        feed(1000, "event: endpoint\ndata: /message?sessionId=abc\n\n", ": ping\n",
                "event: message\ndata: {\"a\":\ndata:1}\n\n", "data: second\n\n");

        assertThat(events).containsExactly(new EventStreamParser.Event("endpoint", "/message?sessionId=abc"),
                new EventStreamParser.Event("message", "{\"a\":\n1}"),
                new EventStreamParser.Event("message", "second"));
    }

    @Test
    void emptyDataIsNotDispatchedAndUnknownFieldsAreIgnored() {
        feed(1000, "event: endpoint\ndata: \n\n", "id: 3\nretry: 10\nfoo: bar\ndata\ndata: x\n\n");

        assertThat(events).containsExactly(new EventStreamParser.Event("message", "\nx"));
    }

    @Test
    void crLfAndCrLineEndsSplitAtEveryByte() {
        String stream = "event: message\r\ndata: h\u00e9llo\r\rdata: two\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= bytes.length; cut++) {
            events.clear();
            EventStreamParser parser = new EventStreamParser(1000, sink);
            parser.feed(Unpooled.wrappedBuffer(bytes, 0, cut));
            parser.feed(Unpooled.wrappedBuffer(bytes, cut, bytes.length - cut));

            assertThat(events).as("cut at " + cut).containsExactly(new EventStreamParser.Event("message", "h\u00e9llo"),
                    new EventStreamParser.Event("message", "two"));
        }
    }

    @Test
    void anOversizedEventIsDiscardedAndReportedAndTheNextOneArrives() {
        feed(100, "data: " + "x".repeat(60) + "\n", "data: " + "y".repeat(60) + "\n\n", "data: " + "z".repeat(500),
                "\n\ndata: ok\n\n");

        assertThat(oversized).hasSize(2);
        assertThat(oversized.get(0)).isGreaterThan(100);
        assertThat(oversized.get(1)).isGreaterThanOrEqualTo(500);
        assertThat(events).containsExactly(new EventStreamParser.Event("message", "ok"));
    }

    @Test
    void dataJustAtTheBoundIsDelivered() {
        feed(100, "data: " + "x".repeat(100) + "\n\n");

        assertThat(oversized).isEmpty();
        assertThat(events).containsExactly(new EventStreamParser.Event("message", "x".repeat(100)));
    }
}
