package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A 2025-11-25 client session as its transport keeps it: an HTTP session ({@code Mcp-Session-Id}) or the one stdio
 * connection. Tasks are in the store; so are HTTP sessions' ids and principals ({@link StoredSessions}), while a
 * session's streams and notifications live in one gateway process: a restart loses only those, never a task nor the
 * session id.
 */
interface FrontSession {

    /** The session id (HTTP: the {@code Mcp-Session-Id} value; stdio: a fixed name). */
    String id();

    /**
     * Sends a server-to-client notification (e.g. {@code notifications/tasks/status}) on the session's stream; on
     * HTTP, dropped when the client has no stream open (notifications are advisory: the client polls).
     */
    void notify(ObjectNode notification);
}
