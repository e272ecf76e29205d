package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.HttpTarget;
import dev.mcptasks.adapters.httpsupport.HttpTransportFactoryBase;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import java.util.Objects;

/**
 * Creates {@code http} transports: MCP Streamable HTTP over Netty. Each transport asks its server's
 * {@link HttpAuthorizer} for the {@code Authorization} header of every request and answers the server's challenges
 * with it; the authorizer's header replaces a configured {@code Authorization} header whenever it has one.
 */
public final class HttpTransportFactory extends HttpTransportFactoryBase {
    /** The kind this factory is registered under. */
    public static final String KIND = "http";

    /** A factory whose servers have no authorizer ({@link HttpAuthorizers#none()}): configured headers only. */
    public HttpTransportFactory() {
        this(HttpAuthorizers.none());
    }

    public HttpTransportFactory(HttpAuthorizers authorizers) {
        super(KIND, authorizers);
    }

    /** An http(s) url configured as {@code http} or not configured (Streamable HTTP is what detection tries first). */
    @Override
    public boolean supports(McpServerSpec spec) {
        return (spec.transport() == null || spec.transport().equals(McpServerSpec.HTTP))
                && HttpTarget.isHttp(spec.url());
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        return new StreamableHttpMcpTransport(spec, authorizerFor(spec));
    }

    @Override
    public boolean canResume(McpServerSpec spec) {
        return supports(spec);
    }

    /** A transport that sends {@code sessionId} and {@code protocolVersion} from its first request on. */
    @Override
    public McpTransport resume(McpServerSpec spec, String sessionId, String protocolVersion) {
        return StreamableHttpMcpTransport.resuming(spec, authorizerFor(spec),
                Objects.requireNonNull(sessionId, "sessionId"), Objects.requireNonNull(protocolVersion,
                        "protocolVersion"));
    }

    private HttpAuthorizer authorizerFor(McpServerSpec spec) {
        return authorizerFor(spec, "has no http(s) url: not an HTTP server");
    }
}
