package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Messages a request sends ahead of its answer, on the request's own channel: the SSE answer stream of its POST, or
 * stdio's one output (2026-07-28 {@code subscriptions/listen}: the acknowledgement and the notifications of the
 * subscription, each tagged with its id). Sent in the order of the calls; the answer follows them all.
 */
interface RequestStream {
    /** A request whose transport can carry nothing before its answer (a JSON-only HTTP exchange, a test). */
    RequestStream NONE = new RequestStream() {
        @Override
        public boolean available() {
            return false;
        }

        @Override
        public void send(ObjectNode message) {
            // nowhere to send it
        }
    };

    /** Whether messages sent now reach the client before the answer. */
    default boolean available() {
        return true;
    }

    /** Sends {@code message} (any thread); dropped once the request was answered or its client left. */
    void send(ObjectNode message);
}
