package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The seam between the gateway's transports (Streamable HTTP, stdio) and its protocol layer. A transport parses and
 * authenticates; the dispatcher answers. It never throws: a bad request completes with a JSON-RPC error response.
 */
interface FrontDispatcher {

    /**
     * Handles one JSON-RPC message (a request, a notification, or a response to a request of ours).
     *
     * @return the JSON-RPC response to a request ({@code {"jsonrpc":"2.0","id":…,"result"|"error":…}}); empty for a
     *     notification or a response. A blocking call (a plain {@code tools/call}, a 2025 {@code tasks/result})
     *     completes when the task ends, which may be hours later.
     */
    CompletableFuture<Optional<ObjectNode>> dispatch(FrontRequest request);

    /** The session ended (HTTP DELETE, stdio end of input): its status notifications stop. */
    void sessionClosed(FrontSession session);

    /**
     * The transport stops: requests that stream until the server ends them (2026 {@code subscriptions/listen}) are
     * answered now with their graceful end, before the connections close.
     */
    default void stopping() {}
}
