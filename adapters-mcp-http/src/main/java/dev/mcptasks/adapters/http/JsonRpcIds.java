package dev.mcptasks.adapters.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * Reads the JSON-RPC id of a request or an answer from the top level of a message, streaming (nested values are
 * skipped, not built), so the transport can tell which answer an SSE event carries. Ids compare as text: a number
 * as its digits, a string quoted, so {@code 1} and {@code "1"} differ as JSON-RPC says.
 */
final class JsonRpcIds {
    private static final JsonFactory JSON = new JsonFactory();

    private JsonRpcIds() {}

    /** The id of a request ({@code method} and a non-null {@code id}), or null for anything else. */
    static String requestId(String message) {
        Top top = top(message);
        return top != null && top.method && !top.answer ? top.id : null;
    }

    /** The id of an answer ({@code result} or {@code error}, no {@code method}), or null for anything else. */
    static String answerId(String message) {
        Top top = top(message);
        return top != null && top.answer && !top.method ? top.id : null;
    }

    private static final class Top {
        String id;
        boolean method;
        boolean answer;
    }

    /** The top-level members that matter, or null when the message is not a JSON object. */
    private static Top top(String message) {
        try (JsonParser parser = JSON.createParser(message)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Top top = new Top();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "id" -> top.id = switch (value) {
                        case VALUE_NUMBER_INT -> parser.getBigIntegerValue().toString();
                        case VALUE_NUMBER_FLOAT -> parser.getDecimalValue().stripTrailingZeros().toPlainString();
                        case VALUE_STRING -> "\"" + parser.getText() + "\"";
                        default -> null;
                    };
                    case "method" -> top.method = value == JsonToken.VALUE_STRING;
                    case "result", "error" -> top.answer = true;
                    default -> { }
                }
                parser.skipChildren();
            }
            return parser.currentToken() == JsonToken.END_OBJECT ? top : null;
        } catch (IOException e) {
            return null;
        }
    }
}
