package dev.mcptasks.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One JSON object of the configuration with its path, read with strict types and ranges. Every error names the full
 * JSON path of the key; values are never echoed for keys that may hold secrets (callers only pass secret-free values
 * to the messages built here, which print numbers and types, not strings).
 */
final class JsonSection {
    private final JsonNode node;
    private final String path;

    private JsonSection(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    static JsonSection root(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new ConfigException("", "the configuration must be a JSON object");
        }
        return new JsonSection(node, "");
    }

    /** The path of this object itself. */
    String path() {
        return path;
    }

    /** The path of a key of this object, as written in error messages. */
    String path(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Rejects the first key not in {@code known}, naming it and the keys allowed here. */
    void requireOnly(Set<String> known) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new ConfigException(path(name), "unknown key '" + path(name) + "' (allowed here: "
                        + String.join(", ", new TreeSet<>(known)) + ")");
            }
        }
    }

    boolean has(String key) {
        return node.has(key) && !node.get(key).isNull();
    }

    /** The nested object at {@code key}, or an empty one when absent. */
    JsonSection section(String key) {
        JsonNode child = node.get(key);
        if (child == null || child.isNull()) {
            return new JsonSection(JsonNodeFactory.instance.objectNode(), path(key));
        }
        if (!child.isObject()) {
            throw typeError(key, "an object", child);
        }
        return new JsonSection(child, path(key));
    }

    /** The members of this object as sections, in file order; each member must itself be an object. */
    Map<String, JsonSection> members() {
        Map<String, JsonSection> members = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            if (!field.getValue().isObject()) {
                throw typeError(field.getKey(), "an object", field.getValue());
            }
            members.put(field.getKey(), new JsonSection(field.getValue(), path(field.getKey())));
        }
        return members;
    }

    long longIn(String key, long defaultValue, long min, long max) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return defaultValue;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw typeError(key, "an integer", value);
        }
        long number = value.asLong();
        if (number < min || number > max) {
            throw new ConfigException(path(key),
                    path(key) + " must be between " + min + " and " + max + ", was " + number);
        }
        return number;
    }

    int intIn(String key, int defaultValue, int min, int max) {
        return (int) longIn(key, defaultValue, min, max);
    }

    /** Whether {@code key} holds a string (for keys that take a string or another form). */
    boolean isString(String key) {
        return has(key) && node.get(key).isTextual();
    }

    /** A string, or null when absent; an empty or blank string is an error. */
    String string(String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw typeError(key, "a string", value);
        }
        if (value.asText().isBlank()) {
            throw new ConfigException(path(key), path(key) + " must not be empty");
        }
        return value.asText();
    }

    String requiredString(String key) {
        String value = string(key);
        if (value == null) {
            throw new ConfigException(path(key), path(key) + " is required");
        }
        return value;
    }

    boolean bool(String key, boolean defaultValue) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return defaultValue;
        }
        if (!value.isBoolean()) {
            throw typeError(key, "true or false", value);
        }
        return value.asBoolean();
    }

    List<String> stringList(String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw typeError(key, "an array of strings", value);
        }
        List<String> items = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            if (!value.get(i).isTextual()) {
                throw new ConfigException(path(key) + "[" + i + "]",
                        path(key) + "[" + i + "] must be a string, was " + describe(value.get(i), false));
            }
            items.add(value.get(i).asText());
        }
        return items;
    }

    /** An object of string values (env, headers); the raw values, before {@code ${env:...}} substitution. */
    Map<String, String> stringMap(String key) {
        JsonSection map = section(key);
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : map.node.properties()) {
            if (!field.getValue().isTextual()) {
                throw map.typeError(field.getKey(), "a string", field.getValue());
            }
            values.put(field.getKey(), field.getValue().asText());
        }
        return values;
    }

    private ConfigException typeError(String key, String expected, JsonNode actual) {
        return new ConfigException(path(key), path(key) + " must be " + expected + ", was " + describe(actual,
                expected.contains("integer")));
    }

    /** The JSON type of a value, never the value itself (it may be a secret). */
    private static String describe(JsonNode value, boolean integerExpected) {
        JsonNodeType type = value.getNodeType();
        return switch (type) {
            case NUMBER -> !value.isIntegralNumber() ? "a decimal number"
                    : integerExpected ? "an integer out of range" : "a number";
            case STRING -> "a string";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case NULL, MISSING -> "null";
            case BINARY -> "binary data";
        };
    }
}
