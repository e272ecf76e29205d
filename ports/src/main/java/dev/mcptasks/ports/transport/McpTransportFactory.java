package dev.mcptasks.ports.transport;

/** Creates transports of one kind; bound into a Guice map by {@link #kind()}. */
public interface McpTransportFactory {
    /** {@code stdio} or {@code http} (or a user's own kind). */
    String kind();

    /** Whether this factory can reach the server. */
    boolean supports(McpServerSpec spec);

    /** A new, unstarted transport. */
    McpTransport create(McpServerSpec spec);

    /** Whether {@link #resume} can speak in an existing session of this server. */
    default boolean canResume(McpServerSpec spec) {
        return false;
    }

    /**
     * A new, unstarted transport that speaks in the server's existing session {@code sessionId}, created earlier by
     * another transport (perhaps of a worker that died), under the {@code protocolVersion} negotiated then: no
     * handshake is sent on it, and it leaves the session alive when it closes (the session is not its own). If the
     * server no longer knows the session, requests fail with {@code SESSION_LOST}.
     *
     * @throws UnsupportedOperationException when {@link #canResume} is false
     */
    default McpTransport resume(McpServerSpec spec, String sessionId, String protocolVersion) {
        throw new UnsupportedOperationException("transport '" + kind() + "' cannot speak in an existing session");
    }
}
