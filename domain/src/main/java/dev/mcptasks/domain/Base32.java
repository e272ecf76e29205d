package dev.mcptasks.domain;

/**
 * Lower-case Crockford base32 (no i, l, o, u). Its alphabet is in ASCII order, so fixed-width encodings of numbers
 * sort like the numbers, which keeps task ids sortable by creation time. The one encoding of every random id the
 * process makes (task ids, claim tokens, worker ids, request-id prefixes).
 */
public final class Base32 {
    private static final String ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

    private Base32() {}

    /** The low {@code 5 * width} bits of {@code value}, most significant first, zero-padded to {@code width}. */
    public static void appendFixed(StringBuilder out, long value, int width) {
        for (int i = width - 1; i >= 0; i--) {
            out.append(ALPHABET.charAt((int) ((value >>> (5 * i)) & 31)));
        }
    }

    /** Every 5 bits of {@code bytes} as one character (the last character may carry fewer bits). */
    public static String encode(byte[] bytes) {
        StringBuilder out = new StringBuilder((bytes.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(ALPHABET.charAt((buffer >>> (bits - 5)) & 31));
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(ALPHABET.charAt((buffer << (5 - bits)) & 31));
        }
        return out.toString();
    }
}
