package dev.mcptasks.app.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON syntax error said for a person editing a configuration file: the kind of mistake, without the parser's
 * internals (character codes, token types, source descriptions). Never quotes more than one character of the file:
 * the text around a mistake may be a secret.
 */
final class JsonSyntaxText {
    private static final Pattern UNEXPECTED = Pattern.compile(
            "Unexpected character \\('(.)' \\(code \\d+\\)\\)(?:: was expecting (.*))?");
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']*)'");

    private JsonSyntaxText() {}

    static String of(JsonProcessingException error) {
        if (error instanceof JsonEOFException) {
            return "the text ends before the JSON is complete (a missing '}' or ']'?)";
        }
        String original = error.getOriginalMessage() == null ? "" : error.getOriginalMessage().lines().findFirst()
                .orElse("");
        Matcher duplicate = DUPLICATE.matcher(original);
        if (duplicate.find()) {
            return "the key '" + duplicate.group(1) + "' appears twice in one object";
        }
        if (original.startsWith("Trailing token")) {
            return "more text follows the JSON object (one object per file)";
        }
        Matcher unexpected = UNEXPECTED.matcher(original);
        if (unexpected.find()) {
            String expected = unexpected.group(2);
            return "unexpected '" + unexpected.group(1) + "'" + (expected == null ? ""
                    : ", expected " + expected.replace("double-quote to start field name", "a quoted key")
                            .replaceAll("\\s*\\(.*", ""));
        }
        if (original.startsWith("Unrecognized token")) {
            return "a bare word where a value belongs (strings need double quotes; true, false and null are"
                    + " lower case)";
        }
        return "a syntax error";
    }
}
