package dev.mcptasks.app.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The bytes of a {@link PrintStream} written as text to a command's {@link PrintWriter} (the OAuth adapter reports
 * login progress on a stream; the CLI writes through writers that tests capture). Bytes are decoded per flush, and a
 * line-flushing stream flushes only after whole lines, so a multi-byte character is never split.
 */
final class WriterStream extends OutputStream {
    private final PrintWriter writer;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

    private WriterStream(PrintWriter writer) {
        this.writer = writer;
    }

    /** A UTF-8 print stream onto {@code writer} that flushes at each line. */
    static PrintStream printStream(PrintWriter writer) {
        return new PrintStream(new WriterStream(writer), true, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void write(int b) {
        pending.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        pending.write(bytes, offset, length);
    }

    @Override
    public synchronized void flush() {
        if (pending.size() > 0) {
            writer.print(pending.toString(StandardCharsets.UTF_8));
            pending.reset();
        }
        writer.flush();
    }
}
