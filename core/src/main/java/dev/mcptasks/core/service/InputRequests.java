package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a task in {@code input_required} asks for, read from its stored {@code inputRequired} JSON (2026-07-28: the
 * server's {@code inputRequests} object, key to {@code {method, params}}), and whether mcp-tasks can deliver answers
 * to it. Stored JSON is strict by construction; anything that is not the expected shape reads as no requests.
 */
public final class InputRequests {
    /**
     * One input request.
     *
     * @param key the request's key, which the answer names
     * @param method {@code elicitation/create}, {@code sampling/createMessage}, {@code roots/list}, or null
     * @param message the request's {@code params.message} (an elicitation's question), or null
     */
    public record InputRequest(String key, String method, String message) {}

    private InputRequests() {}

    /** The task's input requests, by key order; empty when it asks for nothing readable. */
    public static List<InputRequest> of(TaskRecord task) {
        List<InputRequest> requests = new ArrayList<>();
        if (task.status() != TaskStatus.INPUT_REQUIRED) {
            return requests;
        }
        Map<String, Object> object = object(task.state().inputRequiredJson());
        for (String key : new TreeSet<>(object.keySet())) {
            Map<String, Object> request = asObject(object.get(key));
            Map<String, Object> params = asObject(request.get("params"));
            requests.add(new InputRequest(key, text(request.get("method")), text(params.get("message"))));
        }
        return requests;
    }

    /** The keys that have an answer stored and not yet delivered, in key order. */
    public static Set<String> pendingAnswerKeys(TaskRecord task) {
        return new TreeSet<>(object(task.state().inputResponsesJson()).keySet());
    }

    /** The task's protocol generation, from the protocol version it was created under. */
    public static ProtocolGeneration generation(TaskRecord task) {
        return ProtocolGeneration.ofProtocolVersion(task.state().protocolVersion());
    }

    /** Whether answers to this task's input requests can be given through mcp-tasks now. */
    public static boolean answerable(TaskRecord task) {
        return task.status() == TaskStatus.INPUT_REQUIRED && generation(task).answersInputRequests();
    }

    /** Why a 2025-11-25 task cannot be answered from mcp-tasks. */
    public static final String ANSWERS_2025 = "the 2025-11-25 tasks protocol takes answers only on the server's"
            + " tasks/result stream, which mcp-tasks does not drive; answer it from a client that holds that stream,"
            + " or cancel the task";

    /** The shape of the bare answer each kind of input request takes, for a reader to fill in. */
    public static String answerTemplate(String method) {
        if ("sampling/createMessage".equals(method)) {
            return "{\"role\":\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"...\"},\"model\":\"...\"}";
        }
        if ("roots/list".equals(method)) {
            return "{\"roots\":[{\"uri\":\"file:///...\"}]}";
        }
        return "{\"action\":\"accept\",\"content\":{...}}";
    }

    /**
     * Checks that the task can take an answer to {@code key} now.
     *
     * @throws AnswerRejectedException naming why it cannot
     */
    static void check(TaskRecord task, String key) {
        String id = task.id().value();
        if (task.status() != TaskStatus.INPUT_REQUIRED) {
            throw new AnswerRejectedException(AnswerRejectedException.Reason.NOT_WAITING, "task " + id + " is "
                    + task.status().wireName() + ", not input_required: it waits for no answer");
        }
        if (!generation(task).answersInputRequests()) {
            throw new AnswerRejectedException(AnswerRejectedException.Reason.GENERATION_CANNOT_ANSWER, "task " + id
                    + " cannot be answered from mcp-tasks: " + ANSWERS_2025);
        }
        Set<String> keys = new TreeSet<>(object(task.state().inputRequiredJson()).keySet());
        if (!keys.contains(key)) {
            throw new AnswerRejectedException(AnswerRejectedException.Reason.UNKNOWN_KEY, "task " + id
                    + " has no input request '" + key + "'" + (keys.isEmpty() ? "" : "; its requests: "
                            + String.join(", ", keys)));
        }
    }

    /**
     * The answer as it is stored: a JSON object, the bare result of the request. Checked before the task is read, so
     * a malformed answer is a usage error whatever the task's state. Returned in compact canonical form.
     *
     * @throws AnswerRejectedException when it is not a JSON object or looks wrapped
     */
    static String answer(String responseJson) {
        Object answer;
        try {
            answer = StrictJson.parse(responseJson);
        } catch (DomainException e) {
            throw new AnswerRejectedException(AnswerRejectedException.Reason.INVALID_RESPONSE,
                    "the answer is not valid JSON: " + e.getMessage());
        }
        if (!(answer instanceof Map<?, ?> object)) {
            throw new AnswerRejectedException(AnswerRejectedException.Reason.INVALID_RESPONSE, "the answer must be a"
                    + " JSON object, the bare result of the request (for an elicitation"
                    + " {\"action\":\"accept\",\"content\":{...}})");
        }
        if (object.containsKey("method") || object.containsKey("result")) {
            // servers drop entries that look wrapped: the answer would be lost silently
            throw new AnswerRejectedException(AnswerRejectedException.Reason.INVALID_RESPONSE, "the answer must be"
                    + " the bare result of the request, not wrapped in 'method' or 'result' members");
        }
        return StrictJson.write(answer);
    }

    private static Map<String, Object> object(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            return asObject(StrictJson.parse(json));
        } catch (DomainException e) {
            return Map.of();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static String text(Object value) {
        return value instanceof String s ? s : null;
    }
}
