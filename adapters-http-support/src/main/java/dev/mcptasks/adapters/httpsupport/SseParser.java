package dev.mcptasks.adapters.httpsupport;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The one incremental {@code text/event-stream} parser of every HTTP transport (WHATWG rules): {@code data:} lines
 * join with {@code \n}, {@code event:} (default {@code message}), {@code id:} and {@code retry:} fields, {@code :}
 * comments, CR, LF or CRLF line ends, input split anywhere (even inside a line, a CRLF pair or a UTF-8 character).
 * Events with empty data (priming events) are not dispatched but their id still counts. An event whose data exceeds
 * the bound is discarded, never held whole, and reported; a line buffer grown for a large event is let go after it,
 * so a long-lived stream holds only what its current line needs. One thread feeds it.
 */
public final class SseParser {

    /** Receives what the parser finds. */
    public interface Sink {
        void onEvent(SseEvent event);

        /** An event over the bound was discarded; {@code bytes} is how much of its data was seen. */
        void onOversized(long bytes);
    }

    /** Room for a field name and its colon beside a data value at the bound. */
    private static final int FIELD_SLACK = 64;
    private static final int INITIAL_LINE = 256;
    /** A line buffer larger than this is let go once its line ended. */
    static final int KEPT_LINE = 64 * 1024;

    private final int maxEventBytes;
    private final Sink sink;
    private byte[] line = new byte[INITIAL_LINE];
    private int lineLength;
    /** Bytes of the current line beyond what is kept: non-zero means the line is dropped. */
    private long lineOverflowBytes;
    private boolean lastWasCr;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;
    private long eventBytes;
    private boolean eventOverflow;
    private String type;
    private String eventId;
    private String lastEventId;
    private long retryMillis = -1;

    public SseParser(int maxEventBytes, Sink sink) {
        this.maxEventBytes = maxEventBytes;
        this.sink = sink;
    }

    /** Consumes all readable bytes of {@code buf}. */
    public void feed(ByteBuf buf) {
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

    /** The last {@code id:} seen on this stream (kept across events), or null. */
    public String lastEventId() {
        return lastEventId;
    }

    /** The last {@code retry:} value in milliseconds, or -1. */
    public long retryMillis() {
        return retryMillis;
    }

    /** The capacity of the line buffer now, for tests. */
    int lineCapacity() {
        return line.length;
    }

    private void append(ByteBuf buf, int count) {
        if (lineOverflowBytes > 0 || lineLength + count > maxEventBytes + FIELD_SLACK) {
            // only a data line can be this long, and its event is over the bound: count it, keep nothing
            lineOverflowBytes += count + (lineOverflowBytes == 0 ? lineLength : 0);
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
        if (lineOverflowBytes > 0) {
            eventOverflow = true;
            eventBytes += lineOverflowBytes;
            lineOverflowBytes = 0;
            data.setLength(0);
            return;
        }
        if (lineLength == 0) {
            dispatch();
            return;
        }
        String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
        int lineBytes = lineLength;
        lineLength = 0;
        if (line.length > KEPT_LINE) {
            line = new byte[INITIAL_LINE];
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
        // the field name and separator are ASCII: what is left of the line's bytes is the value's
        int valueBytes = lineBytes - (text.length() - value.length());
        switch (field) {
            case "data" -> addData(value, valueBytes);
            case "event" -> type = value;
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    eventId = value;
                    lastEventId = value.isEmpty() ? null : value;
                }
            }
            case "retry" -> {
                if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9') && value.length() < 12) {
                    retryMillis = Long.parseLong(value);
                }
            }
            default -> { }
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
            sink.onEvent(new SseEvent(eventId == null || eventId.isEmpty() ? null : eventId,
                    type == null || type.isEmpty() ? SseEvent.MESSAGE : type, data.toString()));
        }
        data.setLength(0);
        hasData = false;
        eventBytes = 0;
        eventOverflow = false;
        type = null;
        eventId = null;
    }
}
