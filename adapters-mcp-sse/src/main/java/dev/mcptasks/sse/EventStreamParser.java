package dev.mcptasks.sse;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental {@code text/event-stream} parser for the legacy transport's one long stream: {@code event:} and
 * {@code data:} fields (data lines joined with {@code \n}), {@code :} comments, CR, LF or CRLF line ends, input split
 * anywhere (inside a line, a CRLF pair or a UTF-8 character). {@code id:} and {@code retry:} are ignored: the
 * 2024-11-05 transport has no resumption. Events with empty data are not dispatched. An event whose data exceeds the
 * bound is discarded, never held whole, and reported. One thread feeds it.
 */
final class EventStreamParser {

    /** One dispatched event; {@code type} is {@code message} when the stream named none. */
    record Event(String type, String data) {}

    /** Receives what the parser finds. */
    interface Sink {
        void onEvent(Event event);

        /** An event over the bound was discarded; {@code bytes} is how much of its data was seen. */
        void onOversized(long bytes);
    }

    /** Room for a field name and its colon beside a data value at the bound. */
    private static final int FIELD_SLACK = 64;

    private final int maxEventBytes;
    private final Sink sink;
    private byte[] line = new byte[256];
    private int lineLength;
    /** Bytes of the current line beyond what is kept: non-zero means the line is dropped. */
    private long lineOverflow;
    private boolean lastWasCr;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private long eventBytes;
    private boolean eventOverflow;
    private String type;

    EventStreamParser(int maxEventBytes, Sink sink) {
        this.maxEventBytes = maxEventBytes;
        this.sink = sink;
    }

    /** Consumes all readable bytes of {@code buf}. */
    void feed(ByteBuf buf) {
        while (buf.isReadable()) {
            if (lastWasCr) {
                lastWasCr = false;
                if (buf.getByte(buf.readerIndex()) == '\n') {
                    buf.skipBytes(1);
                    continue;
                }
            }
            int end = buf.forEachByte(ByteProcessor.FIND_CRLF);
            if (end < 0) {
                append(buf, buf.readableBytes());
                return;
            }
            append(buf, end - buf.readerIndex());
            lastWasCr = buf.readByte() == '\r';
            endLine();
        }
    }

    private void append(ByteBuf buf, int count) {
        if (lineOverflow > 0 || lineLength + count > maxEventBytes + FIELD_SLACK) {
            // only a data line can be this long, and its event is over the bound: count it, keep nothing
            lineOverflow += count + (lineOverflow == 0 ? lineLength : 0);
            lineLength = 0;
            buf.skipBytes(count);
            return;
        }
        if (lineLength + count > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + count));
        }
        buf.readBytes(line, lineLength, count);
        lineLength += count;
    }

    private void endLine() {
        if (lineOverflow > 0) {
            eventOverflow = true;
            eventBytes += lineOverflow;
            lineOverflow = 0;
            data.setLength(0);
            return;
        }
        if (lineLength == 0) {
            dispatch();
            return;
        }
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        int valueBytes = lineLength;
        lineLength = 0;
        if (line.length > 64 * 1024) {
            line = new byte[256];
        }
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (field.equals("data")) {
            // the field name and separator are ASCII: what is left of the line's bytes is the value's
            addData(value, valueBytes - (text.length() - value.length()));
        } else if (field.equals("event")) {
            type = value;
        }
    }

    private void addData(String value, int bytes) {
        eventBytes += bytes + (hasData ? 1 : 0);
        if (eventOverflow || eventBytes > maxEventBytes) {
            eventOverflow = true;
            data.setLength(0);
            return;
        }
        if (hasData) {
            data.append('\n');
        }
        data.append(value);
        hasData = true;
    }

    private void dispatch() {
        if (eventOverflow) {
            sink.onOversized(eventBytes);
        } else if (data.length() > 0) {
            sink.onEvent(new Event(type == null || type.isEmpty() ? "message" : type, data.toString()));
        }
        data.setLength(0);
        hasData = false;
        eventBytes = 0;
        eventOverflow = false;
        type = null;
    }
}
