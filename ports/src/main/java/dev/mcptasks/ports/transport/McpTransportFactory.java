package dev.mcptasks.ports.transport;

/** Creates transports of one kind; bound into a Guice map by {@link #kind()}. */
public interface McpTransportFactory {
    /** {@code stdio} or {@code http} (or a user's own kind). */
    String kind();

    /** Whether this factory can reach the server. */
    boolean supports(McpServerSpec spec);

    /** A new, unstarted transport. */
    McpTransport create(McpServerSpec spec);
}
