package dev.mcptasks.adapters.stdio;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.time.Duration;

/** Creates {@code stdio} transports: an MCP server launched as a child process. */
public final class StdioTransportFactory implements McpTransportFactory {
    /** The kind this factory is registered under. */
    public static final String KIND = "stdio";
    /** The wait between the steps of the shutdown ladder (the TypeScript SDK's 2 s). */
    static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(2);

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public boolean supports(McpServerSpec spec) {
        return spec.isStdio();
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("server '" + spec.name() + "' has no command: not a stdio server");
        }
        return new StdioMcpTransport(spec, SHUTDOWN_GRACE);
    }
}
