package dev.mcptasks.adapters.admin;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * The dashboard's one escaping helper: every piece of text that did not come from this module's own string literals
 * (task data, tool names, results, principals, errors, query values) goes through {@link #text} before it enters a
 * page, in element content and in quoted attribute values alike.
 */
final class HtmlEscaper {
    private HtmlEscaper() {
    }

    /** {@code value} as HTML text: {@code & < > " '} as entities; null as the empty string. */
    static String text(Object value) {
        if (value == null) {
            return "";
        }
        String s = value.toString();
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** {@code value} encoded for a URL's query, then escaped for an attribute. */
    static String query(String value) {
        return text(URLEncoder.encode(value == null ? "" : value, StandardCharsets.UTF_8));
    }

    /** {@code value} cut to {@code max} characters (with how many were left out), then escaped. */
    static String bounded(String value, int max) {
        if (value == null) {
            return "";
        }
        if (value.length() <= max) {
            return text(value);
        }
        return text(value.substring(0, max)) + "\n… (" + (value.length() - max) + " more characters)";
    }
}
