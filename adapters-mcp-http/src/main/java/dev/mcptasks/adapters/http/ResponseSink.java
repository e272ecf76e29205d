package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.ports.transport.McpTransportException;

/** Where a response handler puts what it reads; called on the channel's event loop. */
interface ResponseSink {
    /** One SSE event with data; true when it was a new message for the listener (not a replay, not ignored). */
    boolean onEvent(SseEvent event);

    /** A whole non-empty JSON body. */
    void onBody(String body);

    /** A survivable problem (an oversized message that was discarded). */
    void onError(McpTransportException error);
}
