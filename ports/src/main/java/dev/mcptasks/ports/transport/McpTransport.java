package dev.mcptasks.ports.transport;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A message pipe to one MCP server: sends one serialized JSON-RPC message at a time and hands every inbound message
 * (responses, notifications, server requests) to the listener. It knows nothing of JSON-RPC semantics beyond framing;
 * correlation, timeouts and the lifecycle belong to the session above it. A new transport is one class implementing
 * this interface, a {@link McpTransportFactory}, and one Guice module binding the factory.
 */
public interface McpTransport extends AutoCloseable {

    /** Opens the pipe (spawns the process, prepares the HTTP client). Throws {@link McpTransportException}. */
    void start(Listener listener);

    /**
     * Sends one JSON-RPC message (UTF-8 JSON text, no framing). The future completes when the transport is done
     * with the message: stdio when it was written and flushed; HTTP when the response (a 202, a JSON body, or a whole
     * SSE stream) has been consumed and every message in it handed to the listener. It fails with
     * {@link McpTransportException} when the message could not be delivered or its response stream broke beyond
     * recovery; {@code sent()} on the exception says whether the server may have received it.
     */
    CompletableFuture<Void> send(String message);

    /**
     * Gives up on the response to a message sent earlier ({@code sent} is the future {@link #send} returned for it):
     * the caller timed out or cancelled the request. HTTP closes the connection carrying its POST (the 2026-07-28
     * revision reads a closed stream as cancelling the request); stdio holds nothing once a message is written.
     * {@code sent} completes, if it has not, once the transport holds nothing more for the message, so a caller
     * waiting for it knows the connection was really let go. Unknown or finished futures are ignored. A transport
     * decorator must forward this call, or an abandoned HTTP request stays open until its read timeout.
     */
    default void abandon(CompletableFuture<Void> sent) {}

    /** Called once the session negotiated a protocol version (HTTP sends it as {@code MCP-Protocol-Version}). */
    default void protocolVersionNegotiated(String version) {}

    /**
     * The server's id of the session this pipe speaks in (HTTP: the {@code Mcp-Session-Id} it handed out), once
     * there is one; empty for transports without sessions. A credential for that session: never log it.
     */
    default Optional<String> sessionId() {
        return Optional.empty();
    }

    /** Ends the pipe gracefully (stdio: close stdin, wait, SIGTERM, wait, SIGKILL; HTTP: DELETE the session). */
    @Override
    void close();

    /**
     * Ends the pipe but leaves the server's session alive (HTTP: no DELETE), because tasks created in it may be
     * driven on by another worker that speaks in it again ({@link McpTransportFactory#resume}). Transports without
     * sessions just close.
     */
    default void detach() {
        close();
    }

    /** Receives inbound traffic; called from transport threads, must not block. */
    interface Listener {
        /** One inbound JSON-RPC message, as text. */
        void onMessage(String message);

        /** An inbound problem not tied to one send (a malformed line, an oversized message): logged, survivable. */
        default void onError(McpTransportException error) {}

        /**
         * The pipe is gone (process exited, HTTP session lost): requests in flight will get no answer. The session
         * creates a new transport for the next request.
         */
        void onClosed(McpTransportException cause);
    }
}
