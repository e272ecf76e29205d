package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.TaskId;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The {@code requestState} of a 2026-07-28 multi-round-trip {@code tools/call} that the gateway answers with
 * {@code input_required} while its task waits for input: which task, and which input keys this client already
 * answered (so the retry does not hand the same requests back while the worker is still delivering the answers).
 * Opaque to the client; it names our task, so it is only honoured for the task's own principal.
 */
record InputRound(TaskId taskId, Set<String> answered) {
    InputRound {
        answered = Set.copyOf(answered);
    }

    String encode() {
        ObjectNode state = FrontJson.object().put("task", taskId.value());
        ArrayNode keys = state.putArray("answered");
        answered.forEach(keys::add);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(
                FrontJson.write(state).getBytes(StandardCharsets.UTF_8));
    }

    /** The state a client sent back; one that is not ours reads as an invalid field. */
    static InputRound decode(JsonNode requestState) {
        if (!requestState.isTextual()) {
            throw FrontError.invalidParams("params.requestState must be a string");
        }
        try {
            JsonNode state = FrontJson.parseOrNull(new String(Base64.getUrlDecoder().decode(
                    requestState.textValue()), StandardCharsets.UTF_8));
            if (state != null && state.path("task").isTextual() && state.path("answered").isArray()) {
                Set<String> answered = new LinkedHashSet<>();
                state.get("answered").forEach(key -> answered.add(key.asText()));
                return new InputRound(TaskId.of(state.get("task").textValue()), answered);
            }
        } catch (IllegalArgumentException e) {
            // bad base64 or an id that cannot be ours (DomainException): the same answer as any foreign state
        }
        throw FrontError.invalidParams("params.requestState is not a state this server issued");
    }

    InputRound plus(Set<String> keys) {
        Set<String> all = new LinkedHashSet<>(answered);
        all.addAll(keys);
        return new InputRound(taskId, all);
    }
}
