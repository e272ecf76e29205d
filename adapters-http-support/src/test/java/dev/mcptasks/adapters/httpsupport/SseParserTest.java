package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SSE framing as both HTTP transports read it: fields, comments, priming events, event types, line ends, bounds, and
 * input split at every possible byte.
 */
class SseParserTest {
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

    private SseParser feed(int max, String... chunks) {
        SseParser parser = new SseParser(max, sink);
        for (String chunk : chunks) {
            parser.feed(Unpooled.wrappedBuffer(chunk.getBytes(StandardCharsets.UTF_8)));
        }
        return parser;
    }

    @Test
    void primingEventIsSkippedButItsIdAndRetryCount() {
        SseParser parser = feed(1000, "id: p-1\nretry: 1500\ndata: \n\n");

        assertThat(events).isEmpty();
        assertThat(parser.lastEventId()).isEqualTo("p-1");
        assertThat(parser.retryMillis()).isEqualTo(1500);
    }

    @Test
    void fieldsCommentsAndMultiLineData() {
        SseParser parser = feed(1000, ": keepalive\n", "event: message\nid: 7\ndata: {\"a\":\ndata:1}\n\n",
                "data: second\n\n");

        assertThat(events).containsExactly(new SseEvent("7", "message", "{\"a\":\n1}"),
                new SseEvent(null, "message", "second"));
        assertThat(parser.lastEventId()).as("the last id persists across events").isEqualTo("7");
    }

    @Test
    void fieldWithoutColonAndUnknownFieldsAndBadValuesAreHandled() {
        SseParser parser = feed(1000, "retry: soon\nid: bad\0id\nfoo: bar\ndata\ndata: x\n\n");

        assertThat(events).containsExactly(new SseEvent(null, "message", "\nx"));
        assertThat(parser.retryMillis()).isEqualTo(-1);
        assertThat(parser.lastEventId()).isNull();
    }

    @Test
    void crlfAndLoneCrEndLines() {
        feed(1000, "data: a\r\n\r\ndata: b\r\rdata: c\n\n");

        assertThat(events).extracting(SseEvent::data).containsExactly("a", "b", "c");
    }

    @Test
    void crlfSplitAcrossChunksIsOneLineEnd() {
        feed(1000, "data: a\r", "\n", "\r", "\ndata: b\n\n");

        assertThat(events).extracting(SseEvent::data).containsExactly("a", "b");
    }

    @Test
    void everySplitPointGivesTheSameEvents() {
        String stream = ": c\r\nid: \u00e9-1\r\nevent: message\r\ndata: {\"t\":\"\u00e9t\u00e9 \uD83D\uDE00\"}\r\n\r\n"
                + "data: x\ndata: y\n\n";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        List<SseEvent> expected = List.of(new SseEvent("\u00e9-1", "message", "{\"t\":\"\u00e9t\u00e9 \uD83D\uDE00\"}"),
                new SseEvent(null, "message", "x\ny"));
        for (int split = 0; split <= bytes.length; split++) {
            events.clear();
            SseParser parser = new SseParser(1000, sink);
            parser.feed(Unpooled.wrappedBuffer(bytes, 0, split));
            parser.feed(Unpooled.wrappedBuffer(bytes, split, bytes.length - split));
            assertThat(events).as("split at %d", split).isEqualTo(expected);
        }
        events.clear();
        SseParser trickled = new SseParser(1000, sink);
        for (byte b : bytes) {
            trickled.feed(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat(events).isEqualTo(expected);
    }

    @Test
    void oversizedEventIsDiscardedAndTheStreamContinues() {
        feed(10, "data: 0123456789\n\n", "data: 01234\ndata: 56789\n\n", "data: " + "z".repeat(500), "\n\n",
                "data: ok\n\n");

        assertThat(events).extracting(SseEvent::data).containsExactly("0123456789", "ok");
        assertThat(oversized).hasSize(2);
        assertThat(oversized.get(1)).isGreaterThanOrEqualTo(500);
    }

    @Test
    void unterminatedEventIsNotDispatched() {
        feed(1000, "data: half");

        assertThat(events).isEmpty();
    }

    /** The stricter of the two parsers this one replaces: a stream must not keep a buffer one large event grew. */
    @Test
    void aLineBufferGrownForOneLargeEventIsLetGoAfterIt() {
        int max = 4 * SseParser.KEPT_LINE;
        SseParser parser = feed(max, "data: " + "x".repeat(2 * SseParser.KEPT_LINE) + "\n");

        assertThat(parser.lineCapacity()).isLessThanOrEqualTo(SseParser.KEPT_LINE);
        parser.feed(Unpooled.wrappedBuffer("\ndata: small\n\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(events).extracting(SseEvent::data).containsExactly("x".repeat(2 * SseParser.KEPT_LINE), "small");
    }

    @Test
    void anEventWithoutOrWithAnEmptyTypeIsAMessage() {
        feed(1000, "data: a\n\n", "event:\ndata: b\n\n", "event: endpoint\ndata: c\n\n");

        assertThat(events).extracting(SseEvent::type).containsExactly("message", "message", "endpoint");
    }

    // the 2024-11-05 stream as the legacy transport reads it: an endpoint event, then messages

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
