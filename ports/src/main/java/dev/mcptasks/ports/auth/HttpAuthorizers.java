package dev.mcptasks.ports.auth;

import dev.mcptasks.ports.transport.McpServerSpec;

/**
 * Gives each HTTP MCP server its {@link HttpAuthorizer}. Transport modules inject it optionally (a Guice
 * {@code OptionalBinder}): without a binding every server gets {@link HttpAuthorizer#NONE}.
 */
@FunctionalInterface
public interface HttpAuthorizers {
    /** The authorizer for this server ({@link HttpAuthorizer#NONE} when none is configured); one per server name. */
    HttpAuthorizer forServer(McpServerSpec server);

    static HttpAuthorizers none() {
        return server -> HttpAuthorizer.NONE;
    }
}
