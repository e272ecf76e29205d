package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpAuth;
import dev.mcptasks.ports.transport.McpTransportException;

/** How one HTTP exchange (request and its whole response) ended. */
sealed interface ExchangeOutcome {

    /** The response was read to its end. */
    record Completed(int status) implements ExchangeOutcome {}

    /** The connection ended before the response did; an SSE stream with ids may be resumed. */
    record Broken(String reason) implements ExchangeOutcome {}

    /**
     * The server asks for authorization: HTTP 401, or 403 with {@code insufficient_scope} (see
     * {@link HttpAuth#isChallenge}). It refused before acting on the request, and the body was read to its end.
     *
     * @param wwwAuthenticate the challenges as received, or null
     */
    record Challenged(int status, String wwwAuthenticate) implements ExchangeOutcome {}

    /** A failure that resuming cannot fix (status, timeout, size, connect). */
    record Failed(McpTransportException cause) implements ExchangeOutcome {}
}
