package dev.mcptasks.http;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental {@code text/event-stream} parser (WHATWG rules): {@code data:} lines join with {@code \n},
 * {@code event:}, {@code id:} and {@code retry:} fields, {@code :} comments, CR, LF or CRLF line ends, input split
 * anywhere (even inside a line, a CRLF pair or a UTF-8 character). Events with empty data (priming events) are not
 * dispatched but their id still counts. An event whose data exceeds the bound is discarded and reported. One thread
 * feeds it.
 */
final class SseParser {

    /** Receives what the parser finds. */
    interface Sink {
        void onEvent(SseEvent event);

        /** An event over the bound was discarded; {@code bytes} is how much of it was seen. */
        void onOversized(long bytes);
    }

    private static final int FIELD_SLACK = 64;

    private final int maxEventBytes;
    private final Sink sink;
    private byte[] line = new byte[256];
    private int lineLength;
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

    SseParser(int maxEventBytes, Sink sink) {
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

    /** The last {@code id:} seen on this stream (kept across events), or null. */
    String lastEventId() {
        return lastEventId;
    }

    /** The last {@code retry:} value in milliseconds, or -1. */
    long retryMillis() {
        return retryMillis;
    }

    private void append(ByteBuf buf, int count) {
        if (lineOverflowBytes > 0 || lineLength + count > maxEventBytes + FIELD_SLACK) {
            // a line this long can only be an oversized data line: count it, keep nothing
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
        if (text.charAt(0) == ':') {
            return;
        }
        int colon = text.indexOf(':');
        String field = colon < 0 ? text : text.substring(0, colon);
        String value = colon < 0 ? "" : text.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        // the field name is ASCII, so its char count is its byte count
        int valueBytes = colon < 0 ? 0 : lineBytes - colon - 1 - (text.length() - colon - 1 - value.length());
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
            sink.onEvent(new SseEvent(eventId == null || eventId.isEmpty() ? null : eventId, type, data.toString()));
        }
        data.setLength(0);
        hasData = false;
        eventBytes = 0;
        eventOverflow = false;
        type = null;
        eventId = null;
    }
}
