package dev.mcptasks.sse;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Locale;

/** Creates {@code sse} transports: the legacy HTTP+SSE transport of MCP 2024-11-05, over Netty. */
public final class SseTransportFactory implements McpTransportFactory {
    /** The kind this factory is registered under. */
    public static final String KIND = McpServerSpec.SSE;

    @Override
    public String kind() {
        return KIND;
    }

    /** An http(s) url configured as {@code sse} (detection asks with the spec's transport set to it). */
    @Override
    public boolean supports(McpServerSpec spec) {
        if (spec.url() == null || spec.url().getScheme() == null || !KIND.equals(spec.transport())) {
            return false;
        }
        String scheme = spec.url().getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("server '" + spec.name() + "' is not an http(s) url configured for the"
                    + " legacy SSE transport");
        }
        return new LegacySseMcpTransport(spec);
    }
}
