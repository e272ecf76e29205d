package dev.mcptasks.http;

import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Objects;

/**
 * Creates {@code http} transports: MCP Streamable HTTP over Netty. Each transport asks its server's
 * {@link HttpAuthorizer} for the {@code Authorization} header of every request and answers the server's challenges
 * with it; the authorizer's header replaces a configured {@code Authorization} header whenever it has one.
 */
public final class HttpTransportFactory implements McpTransportFactory {
    /** The kind this factory is registered under. */
    public static final String KIND = "http";

    private final HttpAuthorizers authorizers;

    /** A factory whose servers have no authorizer ({@link HttpAuthorizers#none()}): configured headers only. */
    public HttpTransportFactory() {
        this(HttpAuthorizers.none());
    }

    public HttpTransportFactory(HttpAuthorizers authorizers) {
        this.authorizers = Objects.requireNonNull(authorizers, "authorizers");
    }

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

    /** The server's authorizer ({@link HttpAuthorizer#NONE} when it has none); refuses a server without http(s). */
    private HttpAuthorizer authorizerFor(McpServerSpec spec) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("server '" + spec.name() + "' has no http(s) url: not an HTTP server");
        }
        HttpAuthorizer authorizer = authorizers.forServer(spec);
        return authorizer == null ? HttpAuthorizer.NONE : authorizer;
    }

    /** The authorizers this factory gives its transports, for the wiring's tests. */
    HttpAuthorizers authorizers() {
        return authorizers;
    }
}
