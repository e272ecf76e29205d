package dev.mcptasks.testkit.transport;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Splits a JSON object into its top-level members as raw JSON text; just enough JSON for the scripted peers, which
 * must not pull a JSON library into the testkit.
 */
public final class JsonMembers {
    private final String text;
    private int pos;

    private JsonMembers(String text) {
        this.text = text;
    }

    /** The top-level members of {@code json}, each value as raw JSON text. Throws on anything but an object. */
    public static Map<String, String> of(String json) {
        return new JsonMembers(json).object();
    }

    /** The value of a raw JSON string literal without its quotes (simple escapes only), or null for non-strings. */
    public static String unquote(String raw) {
        if (raw == null || raw.length() < 2 || raw.charAt(0) != '"') {
            return null;
        }
        return raw.substring(1, raw.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }

    private Map<String, String> object() {
        Map<String, String> members = new LinkedHashMap<>();
        skipSpace();
        expect('{');
        skipSpace();
        if (peek() == '}') {
            return members;
        }
        while (true) {
            skipSpace();
            int keyStart = pos;
            skipString();
            String key = unquote(text.substring(keyStart, pos));
            skipSpace();
            expect(':');
            skipSpace();
            int valueStart = pos;
            skipValue();
            members.put(key, text.substring(valueStart, pos));
            skipSpace();
            char c = next();
            if (c == '}') {
                return members;
            }
            if (c != ',') {
                throw error("',' or '}'");
            }
        }
    }

    private void skipValue() {
        char c = peek();
        if (c == '"') {
            skipString();
        } else if (c == '{' || c == '[') {
            int depth = 0;
            do {
                char d = peek();
                if (d == '"') {
                    skipString();
                    continue;
                }
                pos++;
                if (d == '{' || d == '[') {
                    depth++;
                } else if (d == '}' || d == ']') {
                    depth--;
                }
            } while (depth > 0);
        } else {
            while (pos < text.length() && ",}] \t\r\n".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
        }
    }

    private void skipString() {
        expect('"');
        while (true) {
            char c = next();
            if (c == '\\') {
                next();
            } else if (c == '"') {
                return;
            }
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("more input");
        }
        return text.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("'" + c + "'");
        }
    }

    private IllegalArgumentException error(String expected) {
        return new IllegalArgumentException("not a JSON object: expected " + expected + " at offset " + pos + " in "
                + (text.length() > 200 ? text.substring(0, 200) + "..." : text));
    }
}
