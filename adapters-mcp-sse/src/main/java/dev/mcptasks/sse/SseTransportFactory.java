package dev.mcptasks.sse;

import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Locale;
import java.util.Objects;

/**
 * Creates {@code sse} transports: the legacy HTTP+SSE transport of MCP 2024-11-05, over Netty. Each transport asks
 * its server's {@link HttpAuthorizer} for the {@code Authorization} header of its stream and of every POST, and
 * answers the server's challenges with it; the authorizer's header replaces a configured {@code Authorization}
 * header whenever it has one.
 */
public final class SseTransportFactory implements McpTransportFactory {
    /** The kind this factory is registered under. */
    public static final String KIND = McpServerSpec.SSE;

    private final HttpAuthorizers authorizers;

    /** A factory whose servers have no authorizer ({@link HttpAuthorizers#none()}): configured headers only. */
    public SseTransportFactory() {
        this(HttpAuthorizers.none());
    }

    public SseTransportFactory(HttpAuthorizers authorizers) {
        this.authorizers = Objects.requireNonNull(authorizers, "authorizers");
    }

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
        HttpAuthorizer authorizer = authorizers.forServer(spec);
        return new LegacySseMcpTransport(spec, authorizer == null ? HttpAuthorizer.NONE : authorizer);
    }

    /** The authorizers this factory gives its transports, for the wiring's tests. */
    HttpAuthorizers authorizers() {
        return authorizers;
    }
}
