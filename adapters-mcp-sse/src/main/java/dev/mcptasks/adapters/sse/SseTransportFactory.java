package dev.mcptasks.adapters.sse;

import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.HttpTransportFactoryBase;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;

/**
 * Creates {@code sse} transports: the legacy HTTP+SSE transport of MCP 2024-11-05, over Netty. Each transport asks
 * its server's {@link HttpAuthorizer} for the {@code Authorization} header of its stream and of every POST, and
 * answers the server's challenges with it; the authorizer's header replaces a configured {@code Authorization}
 * header whenever it has one.
 */
public final class SseTransportFactory extends HttpTransportFactoryBase {
    /** The kind this factory is registered under. */
    public static final String KIND = McpServerSpec.SSE;

    /** A factory whose servers have no authorizer ({@link HttpAuthorizers#none()}): configured headers only. */
    public SseTransportFactory() {
        this(HttpAuthorizers.none());
    }

    public SseTransportFactory(HttpAuthorizers authorizers) {
        super(KIND, authorizers);
    }

    /** An http(s) url configured as {@code sse} (detection asks with the spec's transport set to it). */
    @Override
    public boolean supports(McpServerSpec spec) {
        return KIND.equals(spec.transport()) && HttpTarget.isHttp(spec.url());
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        return new LegacySseMcpTransport(spec, authorizerFor(spec,
                "is not an http(s) url configured for the legacy SSE transport"));
    }
}
