package dev.mcptasks.bench;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The valid frames of a SQLite WAL file, read as SQLite's recovery reads them (https://sqlite.org/fileformat.html,
 * "The Write-Ahead Log"): a frame is valid when its salts match the header's and its cumulative checksum matches;
 * the first invalid frame ends the log (frames after it belong to an earlier generation of the file). A frame whose
 * "database size after commit" is not zero ends a committed write transaction.
 *
 * @param salt1 the header's first salt: it changes whenever SQLite restarts the log from its beginning
 * @param pageSize the database page size: each frame is a 24-byte header and one page
 * @param frames valid frames
 * @param commits valid commit frames, that is committed write transactions
 */
record WalFile(long salt1, int pageSize, long frames, long commits) {
    static final int HEADER = 32;
    static final int FRAME_HEADER = 24;

    /** An absent or empty WAL file has no frames. */
    static WalFile read(Path wal) {
        try (InputStream raw = Files.newInputStream(wal);
                DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 20))) {
            byte[] header = new byte[HEADER];
            try {
                in.readFully(header);
            } catch (EOFException e) {
                return new WalFile(0, 0, 0, 0);
            }
            ByteBuffer h = ByteBuffer.wrap(header); // the header itself is always big-endian
            int magic = h.getInt(0);
            if (magic != 0x377f0682 && magic != 0x377f0683) {
                throw new IllegalStateException(wal + " is not a SQLite WAL file (magic " + Integer.toHexString(magic)
                        + ")");
            }
            // the checksums read 32-bit words in the byte order the magic names
            ByteOrder order = (magic & 1) == 1 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            int pageSize = h.getInt(8);
            if (pageSize == 1) {
                pageSize = 65_536;
            }
            int salt1 = h.getInt(16);
            int salt2 = h.getInt(20);
            int[] sum = checksum(order, header, 0, 24, new int[2]);
            if (sum[0] != h.getInt(24) || sum[1] != h.getInt(28)) {
                return new WalFile(Integer.toUnsignedLong(salt1), pageSize, 0, 0); // a header never completed
            }
            byte[] frame = new byte[FRAME_HEADER + pageSize];
            long frames = 0;
            long commits = 0;
            while (true) {
                try {
                    in.readFully(frame);
                } catch (EOFException e) {
                    break;
                }
                ByteBuffer f = ByteBuffer.wrap(frame);
                if (f.getInt(8) != salt1 || f.getInt(12) != salt2) {
                    break;
                }
                checksum(order, frame, 0, 8, sum);
                checksum(order, frame, FRAME_HEADER, pageSize, sum);
                if (sum[0] != f.getInt(16) || sum[1] != f.getInt(20)) {
                    break;
                }
                frames++;
                if (f.getInt(4) != 0) {
                    commits++;
                }
            }
            return new WalFile(Integer.toUnsignedLong(salt1), pageSize, frames, commits);
        } catch (NoSuchFileException e) {
            return new WalFile(0, 0, 0, 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + wal, e);
        }
    }

    /** SQLite's WAL checksum over {@code length} bytes (a multiple of 8), continuing from {@code sum}. */
    static int[] checksum(ByteOrder order, byte[] data, int offset, int length, int[] sum) {
        ByteBuffer words = ByteBuffer.wrap(data, offset, length).order(order);
        int s0 = sum[0];
        int s1 = sum[1];
        for (int i = 0; i < length; i += 8) {
            s0 += words.getInt(offset + i) + s1;
            s1 += words.getInt(offset + i + 4) + s0;
        }
        sum[0] = s0;
        sum[1] = s1;
        return sum;
    }
}
