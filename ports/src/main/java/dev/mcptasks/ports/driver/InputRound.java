package dev.mcptasks.ports.driver;

import java.util.Objects;

/**
 * The answers to a multi-round-trip {@code tools/call} (2026-07-28, {@code resultType: input_required} before any task
 * exists): the create request is sent again with these.
 *
 * @param requestState the opaque state the server returned with its input requests, or null when it sent none
 * @param inputResponsesJson a JSON object from input-request key to the bare answer
 *     ({@code ElicitResult}, {@code CreateMessageResult} or {@code ListRootsResult})
 */
public record InputRound(String requestState, String inputResponsesJson) {
    public InputRound {
        Objects.requireNonNull(inputResponsesJson, "inputResponsesJson");
    }
}
