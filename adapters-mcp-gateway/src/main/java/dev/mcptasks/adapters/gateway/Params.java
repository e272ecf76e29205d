package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.TaskId;

/** Reads request params; anything malformed is a -32602 naming the field. */
final class Params {
    private Params() {}

    /** The request's params object (an absent one reads as empty). */
    static ObjectNode of(ObjectNode message) {
        JsonNode params = message.get("params");
        if (params == null || params.isNull()) {
            return FrontJson.object();
        }
        if (!params.isObject()) {
            throw FrontError.invalidParams("params must be an object");
        }
        return (ObjectNode) params;
    }

    static String requiredString(ObjectNode params, String field) {
        JsonNode value = params.get(field);
        if (value == null || value.isNull()) {
            throw FrontError.invalidParams("params." + field + " is missing");
        }
        if (!value.isTextual()) {
            throw FrontError.invalidParams("params." + field + " must be a string");
        }
        return value.textValue();
    }

    /** An optional object member; null when absent or null. */
    static ObjectNode optionalObject(ObjectNode params, String field, String path) {
        JsonNode value = params.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isObject()) {
            throw FrontError.invalidParams(path + " must be an object");
        }
        return (ObjectNode) value;
    }

    /**
     * {@code params.taskId}. A string that cannot be one of our ids is answered like an unknown id: the caller
     * learns nothing from the difference.
     */
    static TaskId taskId(ObjectNode params) {
        String value = requiredString(params, "taskId");
        try {
            return TaskId.of(value);
        } catch (DomainException e) {
            throw FrontError.taskNotFound();
        }
    }

    /** The 2025-11-25 {@code task.ttl}: a positive whole number of milliseconds, or absent/null for the default. */
    static Long ttl(ObjectNode task) {
        JsonNode ttl = task.get("ttl");
        if (ttl == null || ttl.isNull()) {
            return null;
        }
        if (!ttl.isIntegralNumber() || !ttl.canConvertToLong() || ttl.longValue() <= 0) {
            throw FrontError.invalidParams("params.task.ttl must be a positive whole number of milliseconds");
        }
        return ttl.longValue();
    }
}
