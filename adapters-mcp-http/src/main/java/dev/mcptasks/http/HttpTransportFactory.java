package dev.mcptasks.http;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;

/** Creates {@code http} transports: MCP Streamable HTTP over Netty. */
public final class HttpTransportFactory implements McpTransportFactory {
    /** The kind this factory is registered under. */
    public static final String KIND = "http";

    @Override
    public String kind() {
        return KIND;
    }

    /** An http(s) url configured as {@code http} or not configured (Streamable HTTP is what detection tries first). */
    @Override
    public boolean supports(McpServerSpec spec) {
        if (spec.url() == null || spec.url().getScheme() == null
                || !(spec.transport() == null || spec.transport().equals(McpServerSpec.HTTP))) {
            return false;
        }
        String scheme = spec.url().getScheme().toLowerCase(java.util.Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("server '" + spec.name() + "' has no http(s) url: not an HTTP server");
        }
        return new StreamableHttpMcpTransport(spec);
    }
}
