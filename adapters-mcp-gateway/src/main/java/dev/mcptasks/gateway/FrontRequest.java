package dev.mcptasks.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One message from an authenticated caller.
 *
 * @param principal who sent it (from the bearer token, or the stdio principal); tasks are scoped to it
 * @param session the 2025-11-25 session it belongs to (created by the transport for {@code initialize}), or null
 *     for a stateless 2026-07-28 request
 * @param message the parsed JSON-RPC object
 */
record FrontRequest(String principal, FrontSession session, ObjectNode message) {
    FrontRequest {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(message, "message");
    }
}
