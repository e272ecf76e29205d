package dev.mcptasks.domain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small strict JSON (RFC 8259) reader and canonical writer, so the model can validate what it stores and
 * fingerprint events without a JSON library. Rejects NaN, Infinity, trailing garbage, duplicate keys and control
 * characters in strings. Values: {@code Map<String,Object>}, {@code List<Object>}, {@code String},
 * {@link JsonNumber}, {@code Boolean} and {@link #NULL}.
 */
public final class StrictJson {
    /** The JSON {@code null} value (Java null is never a parsed value). */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    private static final int MAX_DEPTH = 256;

    /** A number kept as its literal text, so that canonical output does not change its precision. */
    public record JsonNumber(String literal) {}

    private final String text;
    private int pos;

    private StrictJson(String text) {
        this.text = text;
    }

    /** Parses one JSON value; throws {@link DomainException} naming the position of the first error. */
    public static Object parse(String json) {
        if (json == null) {
            throw new DomainException("JSON text is missing");
        }
        StrictJson reader = new StrictJson(json);
        reader.skipWhitespace();
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.pos != json.length()) {
            throw reader.error("unexpected text after the JSON value");
        }
        return value;
    }

    /** Validates {@code json} and returns it unchanged. */
    public static String requireValid(String field, String json) {
        try {
            parse(json);
            return json;
        } catch (DomainException e) {
            throw new DomainException(field + " is not valid JSON: " + e.getMessage(), e);
        }
    }

    public static boolean isValid(String json) {
        try {
            parse(json);
            return true;
        } catch (DomainException e) {
            return false;
        }
    }

    /** Canonical form: no insignificant whitespace, object keys sorted by code point. */
    public static String canonicalize(String json) {
        return write(parse(json));
    }

    /** Writes a value tree (as returned by {@link #parse}, or built from maps, lists, strings and numbers). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        writeValue(out, value);
        return out.toString();
    }

    /** A JSON string literal for {@code value}. */
    public static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2);
        writeString(out, value);
        return out.toString();
    }

    private Object readValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return readObject(depth);
            case '[':
                return readArray(depth);
            case '"':
                return readString();
            case 't':
                expectWord("true");
                return Boolean.TRUE;
            case 'f':
                expectWord("false");
                return Boolean.FALSE;
            case 'n':
                expectWord("null");
                return NULL;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return readNumber();
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private Map<String, Object> readObject(int depth) {
        pos++;
        Map<String, Object> result = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return result;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw error("expected a string key");
            }
            String key = readString();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            if (result.put(key, readValue(depth + 1)) != null) {
                throw error("duplicate key \"" + key + "\"");
            }
            skipWhitespace();
            char c = next();
            if (c == '}') {
                return result;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> readArray(int depth) {
        pos++;
        List<Object> result = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return result;
        }
        while (true) {
            skipWhitespace();
            result.add(readValue(depth + 1));
            skipWhitespace();
            char c = next();
            if (c == ']') {
                return result;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String readString() {
        pos++;
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("invalid \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("invalid escape '\\" + e + "'");
            }
        }
    }

    private JsonNumber readNumber() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else if (isDigit(peek())) {
            while (isDigit(peek())) {
                pos++;
            }
        } else {
            throw error("invalid number");
        }
        if (peek() == '.') {
            pos++;
            if (!isDigit(peek())) {
                throw error("invalid number: digit expected after '.'");
            }
            while (isDigit(peek())) {
                pos++;
            }
        }
        if (peek() == 'e' || peek() == 'E') {
            pos++;
            if (peek() == '+' || peek() == '-') {
                pos++;
            }
            if (!isDigit(peek())) {
                throw error("invalid number: digit expected in exponent");
            }
            while (isDigit(peek())) {
                pos++;
            }
        }
        return new JsonNumber(text.substring(start, pos));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private void expectWord(String word) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected token (NaN and Infinity are not JSON)");
        }
        pos += word.length();
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected '" + c + "'");
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        return text.charAt(pos++);
    }

    private void skipWhitespace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private DomainException error(String message) {
        return new DomainException(message + " at offset " + pos);
    }

    @SuppressWarnings("unchecked")
    private static void writeValue(StringBuilder out, Object value) {
        if (value == null || value == NULL) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>((Map<String, Object>) map);
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> entry : sorted.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString(out, entry.getKey());
                out.append(':');
                writeValue(out, entry.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                writeValue(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof String s) {
            writeString(out, s);
        } else if (value instanceof JsonNumber n) {
            out.append(n.literal());
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else {
            throw new DomainException("cannot write " + value.getClass().getSimpleName() + " as JSON");
        }
    }

    private static void writeString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** An immutable JSON object built in key order, for writing. */
    public static Map<String, Object> object(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return Collections.unmodifiableMap(map);
    }
}
