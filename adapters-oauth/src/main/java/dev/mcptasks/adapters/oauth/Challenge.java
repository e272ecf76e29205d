package dev.mcptasks.adapters.oauth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Bearer challenge of a {@code WWW-Authenticate} header (RFC 6750 section 3, RFC 9728 section 5.1): its
 * {@code resource_metadata}, {@code scope} and {@code error}. A header may hold several challenges; only the Bearer
 * one counts, and a header without one (or without a header) gives an empty challenge.
 */
record Challenge(String resourceMetadata, List<String> scopes, String error) {
    static final Challenge EMPTY = new Challenge(null, List.of(), null);

    Challenge {
        scopes = List.copyOf(scopes);
    }

    boolean insufficientScope() {
        return "insufficient_scope".equals(error);
    }

    static Challenge parse(String header) {
        if (header == null || header.isBlank()) {
            return EMPTY;
        }
        Map<String, String> params = bearerParams(header);
        if (params == null) {
            return EMPTY;
        }
        return new Challenge(params.get("resource_metadata"), Scopes.split(params.get("scope")), params.get("error"));
    }

    /** The auth-params of the Bearer challenge, or null when there is none. */
    private static Map<String, String> bearerParams(String header) {
        Lexer lexer = new Lexer(header);
        Map<String, String> bearer = null;
        Map<String, String> current = null;
        while (lexer.more()) {
            lexer.skip(" \t,");
            if (!lexer.more()) {
                break;
            }
            String token = lexer.token();
            if (token.isEmpty()) {
                lexer.pos++;
                continue;
            }
            lexer.skip(" \t");
            if (lexer.peek() == '=') {
                lexer.pos++;
                lexer.skip(" \t");
                String value = lexer.peek() == '"' ? lexer.quoted() : lexer.token();
                if (current != null) {
                    current.put(token.toLowerCase(Locale.ROOT), value);
                }
            } else {
                // a new challenge: a scheme name (and maybe a token68, which the lexer reads as the next token)
                current = new LinkedHashMap<>();
                if (token.equalsIgnoreCase("Bearer") && bearer == null) {
                    bearer = current;
                }
            }
        }
        return bearer;
    }

    private static final class Lexer {
        private final String text;
        int pos;

        Lexer(String text) {
            this.text = text;
        }

        boolean more() {
            return pos < text.length();
        }

        char peek() {
            return more() ? text.charAt(pos) : 0;
        }

        void skip(String chars) {
            while (more() && chars.indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }

        String token() {
            int start = pos;
            while (more() && " \t,=\"".indexOf(text.charAt(pos)) < 0) {
                pos++;
            }
            return text.substring(start, pos);
        }

        String quoted() {
            pos++;
            StringBuilder value = new StringBuilder();
            while (more() && text.charAt(pos) != '"') {
                char c = text.charAt(pos++);
                if (c == '\\' && more()) {
                    c = text.charAt(pos++);
                }
                value.append(c);
            }
            pos++;
            return value.toString();
        }
    }

    @Override
    public String toString() {
        return "Challenge[resourceMetadata=" + resourceMetadata + ", scopes=" + scopes + ", error=" + error + "]";
    }
}
