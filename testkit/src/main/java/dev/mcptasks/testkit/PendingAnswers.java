package dev.mcptasks.testkit;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.StrictJson;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pending answers of a task ({@code input_responses}): a JSON object from input-request key to the bare answer,
 * stored canonical ({@link StrictJson#write}: no whitespace, keys sorted), so that the compare-and-clear of
 * {@code applyOutcome} can compare the stored text with what a worker read and delivered.
 */
final class PendingAnswers {
    private PendingAnswers() {}

    /**
     * The stored answers with {@code key} added, canonical; empty when {@code key} already has an answer (the first
     * one stands).
     */
    static Optional<String> withAnswer(String stored, String key, String responseJson) {
        Objects.requireNonNull(key, "key");
        Object answer = parse("the answer to input request '" + key + "'", responseJson);
        Map<String, Object> answers = stored == null ? new TreeMap<>() : asObject(stored);
        if (answers.containsKey(key)) {
            return Optional.empty();
        }
        answers.put(key, answer);
        return Optional.of(StrictJson.write(answers));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(String stored) {
        Object parsed = parse("the stored input responses", stored);
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalStateException("the stored input responses are not a JSON object: " + stored);
        }
        return new TreeMap<>((Map<String, Object>) map);
    }

    private static Object parse(String what, String json) {
        if (json == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        try {
            return StrictJson.parse(json);
        } catch (DomainException e) {
            throw new IllegalArgumentException(what + " is not valid JSON: " + e.getMessage(), e);
        }
    }
}
