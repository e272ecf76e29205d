package dev.mcptasks.http;

import dev.mcptasks.ports.transport.McpTransportException;

/** How one HTTP exchange (request and its whole response) ended. */
sealed interface ExchangeOutcome {

    /** The response was read to its end. */
    record Completed(int status) implements ExchangeOutcome {}

    /** The connection ended before the response did; an SSE stream with ids may be resumed. */
    record Broken(String reason) implements ExchangeOutcome {}

    /** A failure that resuming cannot fix (status, timeout, size, connect). */
    record Failed(McpTransportException cause) implements ExchangeOutcome {}
}
