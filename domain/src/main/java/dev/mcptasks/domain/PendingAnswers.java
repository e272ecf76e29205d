package dev.mcptasks.domain;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pending answers of a task ({@code input_responses}): a JSON object from input-request key to the bare answer,
 * stored canonical ({@link StrictJson#write}: no whitespace, keys sorted), the same text on every store, so that
 * the compare-and-clear of {@code applyOutcome} can compare the stored text with what a worker read and delivered.
 * Shared by every store, so the canonical form cannot drift between them.
 */
public final class PendingAnswers {
    private PendingAnswers() {}

    /**
     * The parsed answer to input request {@code key}; throws {@link IllegalArgumentException} naming the key when it
     * is not JSON (checked before any transaction, so bad input is never mistaken for a store failure).
     */
    public static Object parseAnswer(String key, String responseJson) {
        Objects.requireNonNull(key, "key");
        return parse("the answer to input request '" + key + "'", responseJson);
    }

    /**
     * The stored answers with {@code key} added, canonical; empty when {@code key} already has an answer (the first
     * one stands).
     */
    public static Optional<String> withAnswer(String stored, String key, Object answer) {
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
