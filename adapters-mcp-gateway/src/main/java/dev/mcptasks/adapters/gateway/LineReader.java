package dev.mcptasks.adapters.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a byte stream into {@code \n}-terminated lines (a trailing {@code \r} dropped) of at most a given length. A
 * longer line is skipped to its end, never buffered whole, and reported as {@link Line.TooLong}.
 */
final class LineReader {
    /** One line of input. */
    sealed interface Line {
        record Text(byte[] bytes) implements Line {}

        record TooLong() implements Line {}
    }

    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;

    LineReader(InputStream in, int maxBytes) {
        this.in = in;
        this.maxBytes = maxBytes;
    }

    /** The next line, or null at end of input (a last line without a newline still counts). */
    Line next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        boolean tooLong = false;
        boolean any = false;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return any ? finish(line, tooLong) : null;
                }
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            int length = position - start;
            if (!tooLong && line.size() + length > maxBytes) {
                tooLong = true;
                line.reset();
            }
            if (!tooLong) {
                line.write(buffer, start, length);
            }
            if (position < limit) {
                position++;
                return finish(line, tooLong);
            }
        }
    }

    private static Line finish(ByteArrayOutputStream line, boolean tooLong) {
        if (tooLong) {
            return new Line.TooLong();
        }
        byte[] bytes = line.toByteArray();
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\r') {
            byte[] trimmed = new byte[length - 1];
            System.arraycopy(bytes, 0, trimmed, 0, length - 1);
            return new Line.Text(trimmed);
        }
        return new Line.Text(bytes);
    }
}
