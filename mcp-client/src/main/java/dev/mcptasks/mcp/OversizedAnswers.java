package dev.mcptasks.mcp;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds which request a discarded oversized message answered, from its first and last bytes. Only a top-level
 * {@code id} counts: first member (or right after {@code "jsonrpc"}) at the start, or last member (or right before a
 * final {@code "jsonrpc"}) at the end, the orders JSON-RPC libraries write. An id nested in the result never sits
 * there.
 */
final class OversizedAnswers {
    private static final Pattern HEAD = Pattern.compile(
            "^\\s*\\{\\s*(?:\"jsonrpc\"\\s*:\\s*\"2\\.0\"\\s*,\\s*)?\"id\"\\s*:\\s*\"([A-Za-z0-9-]{1,64})\"\\s*,");
    private static final Pattern TAIL = Pattern.compile(
            "[,{]\\s*\"id\"\\s*:\\s*\"([A-Za-z0-9-]{1,64})\"\\s*(?:,\\s*\"jsonrpc\"\\s*:\\s*\"2\\.0\"\\s*)?}\\s*$");

    private OversizedAnswers() {}

    /** The id of the response (ours are strings, {@link RequestIds}), or null when neither end shows one. */
    static String responseId(String head, String tail) {
        Matcher start = HEAD.matcher(head);
        if (start.find()) {
            return start.group(1);
        }
        Matcher end = TAIL.matcher(tail);
        if (end.find()) {
            return end.group(1);
        }
        return null;
    }
}
