package dev.mcptasks.adapters.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.stdio.BoundedLineReader.Eof;
import dev.mcptasks.adapters.stdio.BoundedLineReader.Line;
import dev.mcptasks.adapters.stdio.BoundedLineReader.Read;
import dev.mcptasks.adapters.stdio.BoundedLineReader.TooLong;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Line framing: terminators, the bound, and reads that split lines and characters anywhere. */
class BoundedLineReaderTest {

    @Test
    void splitsOnNewlineAndStripsCarriageReturn() throws IOException {
        assertThat(readAll("{\"a\":1}\r\n{\"b\":2}\n\nlast", 100, false))
                .containsExactly(new Line("{\"a\":1}"), new Line("{\"b\":2}"), new Line(""), new Line("last"));
    }

    @Test
    void oversizedLineIsSkippedToItsNewlineAndReadingContinues() throws IOException {
        String big = "x".repeat(50_000);
        assertThat(readAll("ok\n" + big + "\nafter\n", 1000, false))
                .containsExactly(new Line("ok"), tooLong(50_000), new Line("after"));
    }

    @Test
    void lineOfExactlyTheBoundPassesEvenWithCarriageReturn() throws IOException {
        assertThat(readAll("12345\r\n123456\n", 5, false)).containsExactly(new Line("12345"), tooLong(6));
    }

    @Test
    void bytesTrickledOneByOneStillFrameLinesAndCharacters() throws IOException {
        String text = "{\"t\":\"été ✓ \uD83D\uDE00\"}\r\n" + "y".repeat(30) + "\n{}\n";
        assertThat(readAll(text, 25, true))
                .containsExactly(new Line("{\"t\":\"été ✓ \uD83D\uDE00\"}"), tooLong(30), new Line("{}"));
    }

    @Test
    void oversizedUnterminatedTailIsReported() throws IOException {
        assertThat(readAll("a\n" + "z".repeat(10), 4, false)).containsExactly(new Line("a"), tooLong(10));
    }

    @Test
    void anOversizedLineKeepsItsFirstAndLastBytes() throws IOException {
        String big = "{\"result\":{\"pad\":\"" + "x".repeat(50_000) + "\"},\"jsonrpc\":\"2.0\",\"id\":42}";
        for (boolean trickle : new boolean[] {false, true}) {
            List<Read> reads = readAllRaw("ok\n" + big + "\nafter\n", 1000, trickle);
            assertThat(reads.get(1)).isInstanceOfSatisfying(TooLong.class, tooLong -> {
                assertThat(tooLong.bytes()).isEqualTo(big.length());
                assertThat(tooLong.head()).startsWith("{\"result\":{\"pad\":\"xxx")
                        .hasSize(BoundedLineReader.EXCERPT);
                assertThat(tooLong.tail()).endsWith("xx\"},\"jsonrpc\":\"2.0\",\"id\":42}")
                        .hasSize(BoundedLineReader.EXCERPT);
            });
            assertThat(reads.get(2)).isEqualTo(new Line("after"));
        }
    }

    private static TooLong tooLong(long bytes) {
        return new TooLong(bytes, "", "");
    }

    private static List<Read> readAll(String text, int max, boolean trickle) throws IOException {
        return readAllRaw(text, max, trickle).stream()
                .map(read -> read instanceof TooLong tooLong ? tooLong(tooLong.bytes()) : read).toList();
    }

    private static List<Read> readAllRaw(String text, int max, boolean trickle) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        InputStream in = trickle ? new OneByteAtATime(bytes) : new ByteArrayInputStream(bytes);
        BoundedLineReader reader = new BoundedLineReader(in, max);
        List<Read> reads = new ArrayList<>();
        for (Read read = reader.next(); !(read instanceof Eof); read = reader.next()) {
            reads.add(read);
        }
        return reads;
    }

    /** An input stream that hands out one byte per read, as a slow pipe might. */
    private static final class OneByteAtATime extends InputStream {
        private final byte[] bytes;
        private int pos;

        OneByteAtATime(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return pos < bytes.length ? bytes[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (pos >= bytes.length) {
                return -1;
            }
            b[off] = bytes[pos++];
            return 1;
        }
    }
}
