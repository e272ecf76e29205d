package dev.mcptasks.adapters.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads {@code \n}-terminated UTF-8 lines with a byte bound: a longer line is skipped up to its newline and reported
 * as {@link TooLong}, and reading continues with the next line. A trailing {@code \r} is stripped. Not thread-safe:
 * one reader thread owns it.
 */
final class BoundedLineReader {

    /** One outcome of {@link #next()}. */
    sealed interface Read {}

    /** A complete line, without its terminator. */
    record Line(String text) implements Read {}

    /** A line over the bound that was discarded; {@code bytes} is its full length, with its first and last bytes. */
    record TooLong(long bytes, String head, String tail) implements Read {}

    /** How many bytes of a discarded line's start and end are kept. */
    static final int EXCERPT = 256;

    /** The stream ended (a final unterminated line is returned as a {@link Line} first). */
    record Eof() implements Read {}

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[8192];
    private int bufferPos;
    private int bufferEnd;
    private byte[] line = new byte[256];
    private int lineLength;
    private String head = "";
    private final byte[] tail = new byte[EXCERPT];
    private int tailLength;

    BoundedLineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    Read next() throws IOException {
        lineLength = 0;
        long skipped = 0;
        boolean overflow = false;
        while (true) {
            if (bufferPos == bufferEnd) {
                bufferEnd = in.read(buffer);
                bufferPos = 0;
                if (bufferEnd <= 0) {
                    bufferEnd = 0;
                    if (overflow) {
                        return tooLong(skipped);
                    }
                    return lineLength > 0 ? finish() : new Eof();
                }
            }
            int newline = indexOf(buffer, bufferPos, bufferEnd);
            int chunkEnd = newline < 0 ? bufferEnd : newline;
            int chunk = chunkEnd - bufferPos;
            if (!overflow && lineLength + chunk > maxLineBytes + 1) {
                // +1 leaves room for a trailing \r that is stripped below
                overflow = true;
                skipped = lineLength;
                startExcerpt(chunk);
            } else if (overflow) {
                keepTail(buffer, bufferPos, chunk);
            }
            if (overflow) {
                skipped += chunk;
            } else {
                append(chunk);
            }
            bufferPos = chunkEnd;
            if (newline >= 0) {
                bufferPos++;
                if (overflow) {
                    return tooLong(skipped);
                }
                return finish();
            }
        }
    }

    private Read finish() {
        int length = lineLength;
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        if (length > maxLineBytes) {
            int headLength = Math.min(EXCERPT, length);
            int tailStart = Math.max(0, length - EXCERPT);
            return new TooLong(length, new String(line, 0, headLength, StandardCharsets.UTF_8),
                    new String(line, tailStart, length - tailStart, StandardCharsets.UTF_8));
        }
        return new Line(new String(line, 0, length, StandardCharsets.UTF_8));
    }

    /** At the overflow: the head from what was kept plus the chunk that overflowed, the tail started likewise. */
    private void startExcerpt(int chunk) {
        byte[] start = new byte[Math.min(EXCERPT, lineLength + chunk)];
        int fromLine = Math.min(start.length, lineLength);
        System.arraycopy(line, 0, start, 0, fromLine);
        System.arraycopy(buffer, bufferPos, start, fromLine, start.length - fromLine);
        head = new String(start, StandardCharsets.UTF_8);
        tailLength = 0;
        keepTail(line, 0, lineLength);
        keepTail(buffer, bufferPos, chunk);
    }

    private void keepTail(byte[] bytes, int from, int count) {
        if (count >= EXCERPT) {
            System.arraycopy(bytes, from + count - EXCERPT, tail, 0, EXCERPT);
            tailLength = EXCERPT;
            return;
        }
        int keep = Math.min(tailLength, EXCERPT - count);
        System.arraycopy(tail, tailLength - keep, tail, 0, keep);
        System.arraycopy(bytes, from, tail, keep, count);
        tailLength = keep + count;
    }

    private TooLong tooLong(long bytes) {
        int end = tailLength;
        if (end > 0 && tail[end - 1] == '\r') {
            end--;
        }
        TooLong result = new TooLong(bytes, head, new String(tail, 0, end, StandardCharsets.UTF_8));
        head = "";
        tailLength = 0;
        return result;
    }

    private void append(int chunk) {
        if (lineLength + chunk > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + chunk));
        }
        System.arraycopy(buffer, bufferPos, line, lineLength, chunk);
        lineLength += chunk;
    }

    private static int indexOf(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
