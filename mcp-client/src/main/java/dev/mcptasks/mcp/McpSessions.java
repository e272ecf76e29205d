package dev.mcptasks.mcp;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sessions of one worker: one long-lived {@link McpSession} per configured server, created on first use with
 * the first transport factory that supports the server.
 */
public final class McpSessions implements AutoCloseable {
    private final Map<String, McpServerSettings> servers = new LinkedHashMap<>();
    private final List<McpTransportFactory> factories;
    private final Clock clock;
    private final String clientVersion;
    private final Map<String, McpSession> sessions = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public McpSessions(Collection<McpServerSettings> servers, Collection<McpTransportFactory> factories, Clock clock,
            String clientVersion) {
        for (McpServerSettings server : servers) {
            if (this.servers.put(server.name(), server) != null) {
                throw new IllegalArgumentException("MCP server '" + server.name() + "' is configured twice");
            }
            if (factories.stream().noneMatch(factory -> factory.supports(server.spec()))) {
                throw new IllegalArgumentException("no MCP transport can reach server '" + server.name() + "' ("
                        + server.spec() + ")");
            }
        }
        this.factories = List.copyOf(factories);
        this.clock = clock;
        this.clientVersion = clientVersion;
    }

    /** The settings of a configured server. */
    public Optional<McpServerSettings> settings(String serverName) {
        return Optional.ofNullable(servers.get(serverName));
    }

    /** The session of a configured server, created (not yet connected) on first use. */
    public Optional<McpSession> session(String serverName) {
        McpServerSettings server = servers.get(serverName);
        if (server == null) {
            return Optional.empty();
        }
        if (closed) {
            throw new IllegalStateException("the MCP sessions are closed");
        }
        return Optional.of(sessions.computeIfAbsent(serverName, name -> new McpSession(server,
                factories.stream().filter(factory -> factory.supports(server.spec())).findFirst().orElseThrow(),
                clock, clientVersion)));
    }

    /** Closes every session (their transports end gracefully). */
    @Override
    public void close() {
        closed = true;
        for (McpSession session : sessions.values()) {
            session.close();
        }
    }
}
