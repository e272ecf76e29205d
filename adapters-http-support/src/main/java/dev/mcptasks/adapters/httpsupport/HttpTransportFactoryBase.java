package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Objects;

/**
 * What every HTTP transport factory shares: its kind, and the {@link HttpAuthorizers} that give each server's
 * transports their {@link HttpAuthorizer} (whose header replaces a configured {@code Authorization} header whenever
 * it has one). A subclass says which servers it {@link #supports} and how it builds a transport.
 */
public abstract class HttpTransportFactoryBase implements McpTransportFactory {
    private final String kind;
    private final HttpAuthorizers authorizers;

    protected HttpTransportFactoryBase(String kind, HttpAuthorizers authorizers) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.authorizers = Objects.requireNonNull(authorizers, "authorizers");
    }

    @Override
    public final String kind() {
        return kind;
    }

    /**
     * The server's authorizer ({@link HttpAuthorizer#NONE} when it has none); refuses, naming the server and
     * {@code refusal}, a server this factory does not {@link #supports support}.
     */
    protected final HttpAuthorizer authorizerFor(McpServerSpec spec, String refusal) {
        if (!supports(spec)) {
            throw new IllegalArgumentException("server '" + spec.name() + "' " + refusal);
        }
        HttpAuthorizer authorizer = authorizers.forServer(spec);
        return authorizer == null ? HttpAuthorizer.NONE : authorizer;
    }

    /** The authorizers this factory gives its transports, for the wiring's tests. */
    public final HttpAuthorizers authorizers() {
        return authorizers;
    }
}
