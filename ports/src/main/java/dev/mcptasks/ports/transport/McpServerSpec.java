package dev.mcptasks.ports.transport;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach one configured MCP server. Exactly one of {@code command} (stdio) and {@code url} (HTTP) is set. {@code env} and {@code headers} hold resolved secrets: {@link #toString()} never prints their values.
 *
 * @param name the configured server name
 * @param command the executable for stdio, or null
 * @param args its arguments
 * @param env the child's whole environment besides PATH (nothing else is inherited)
 * @param workingDirectory the child's working directory, or null for the runtime's
 * @param url the MCP endpoint for HTTP (for {@link #SSE}: the url whose GET opens the event stream), or null
 * @param headers extra HTTP headers (authorization and the like)
 * @param connectTimeout connect timeout (HTTP) or start-up timeout (stdio)
 * @param readTimeout longest silence on an HTTP response before it is considered broken
 * @param maxMessageBytes largest inbound message (stdio line or SSE event / JSON body)
 * @param maxConnections HTTP: most connections carrying requests at once (the listening GET stream aside); further
 *     requests wait for one, each within its own request timeout. 0 means {@link #DEFAULT_MAX_CONNECTIONS}
 * @param transport the transport kind: {@link #STDIO} for a command (always); for a url {@link #HTTP} (Streamable
 *     HTTP), {@link #SSE} (the legacy 2024-11-05 HTTP+SSE transport), another factory's kind, or null when not
 *     configured: the client then detects it (Streamable HTTP first, the legacy transport as the fallback)
 */
public record McpServerSpec(String name, String command, List<String> args, Map<String, String> env,
        Path workingDirectory, URI url, Map<String, String> headers, Duration connectTimeout, Duration readTimeout,
        int maxMessageBytes, int maxConnections, String transport) {

    /** The transport kind of a server run as a child process. */
    public static final String STDIO = "stdio";
    /** MCP Streamable HTTP. */
    public static final String HTTP = "http";
    /** The legacy HTTP+SSE transport of protocol version 2024-11-05. */
    public static final String SSE = "sse";

    public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    public static final int DEFAULT_MAX_CONNECTIONS = 16;
    public static final int MAX_CONNECTIONS_LIMIT = 1024;

    public McpServerSpec {
        Objects.requireNonNull(name, "name");
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(10) : connectTimeout;
        readTimeout = readTimeout == null ? Duration.ofSeconds(300) : readTimeout;
        if (maxMessageBytes <= 0) {
            maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        }
        if (maxConnections == 0) {
            maxConnections = DEFAULT_MAX_CONNECTIONS;
        }
        if (maxConnections < 0 || maxConnections > MAX_CONNECTIONS_LIMIT) {
            throw new IllegalArgumentException("server '" + name + "': maxConnections must be 1.."
                    + MAX_CONNECTIONS_LIMIT + ", was " + maxConnections);
        }
        if ((command == null) == (url == null)) {
            throw new IllegalArgumentException("server '" + name + "' needs exactly one of command or url");
        }
        if (command != null) {
            if (transport != null && !transport.equals(STDIO)) {
                throw new IllegalArgumentException("server '" + name + "' has a command: its transport is "
                        + STDIO + ", not '" + transport + "'");
            }
            transport = STDIO;
        } else if (transport != null && (transport.isBlank() || transport.equals(STDIO))) {
            throw new IllegalArgumentException("server '" + name + "' has a url: its transport cannot be '"
                    + transport + "'");
        }
    }

    /** A spec whose transport is configured ({@code stdio} for a command) or, for a url, detected. */
    public McpServerSpec(String name, String command, List<String> args, Map<String, String> env,
            Path workingDirectory, URI url, Map<String, String> headers, Duration connectTimeout,
            Duration readTimeout, int maxMessageBytes, int maxConnections) {
        this(name, command, args, env, workingDirectory, url, headers, connectTimeout, readTimeout, maxMessageBytes,
                maxConnections, null);
    }

    /** A spec with the default connection bound. */
    public McpServerSpec(String name, String command, List<String> args, Map<String, String> env,
            Path workingDirectory, URI url, Map<String, String> headers, Duration connectTimeout,
            Duration readTimeout, int maxMessageBytes) {
        this(name, command, args, env, workingDirectory, url, headers, connectTimeout, readTimeout, maxMessageBytes, 0);
    }

    /** This spec with another bound on concurrent HTTP connections. */
    public McpServerSpec withMaxConnections(int bound) {
        return new McpServerSpec(name, command, args, env, workingDirectory, url, headers, connectTimeout,
                readTimeout, maxMessageBytes, bound, transport);
    }

    /** This spec with another transport kind (null: detect it, for a url). */
    public McpServerSpec withTransport(String kind) {
        return new McpServerSpec(name, command, args, env, workingDirectory, url, headers, connectTimeout,
                readTimeout, maxMessageBytes, maxConnections, kind);
    }

    public static McpServerSpec stdio(String name, String command, List<String> args, Map<String, String> env) {
        return new McpServerSpec(name, command, args, env, null, null, null, null, null, 0);
    }

    public static McpServerSpec http(String name, URI url, Map<String, String> headers) {
        return new McpServerSpec(name, null, null, null, null, url, headers, null, null, 0);
    }

    /** A server speaking the legacy HTTP+SSE transport; {@code url} is its SSE endpoint. */
    public static McpServerSpec sse(String name, URI url, Map<String, String> headers) {
        return http(name, url, headers).withTransport(SSE);
    }

    public boolean isStdio() {
        return command != null;
    }

    /** Whether this is a url whose transport was not configured, so the client detects it. */
    public boolean transportDetected() {
        return url != null && transport == null;
    }

    @Override
    public String toString() {
        return "McpServerSpec[name=" + name
                + (command != null ? ", command=" + command + ", args=" + args + ", env keys=" + env.keySet()
                        : ", url=" + url + (transport == null ? "" : ", transport=" + transport)
                                + ", header names=" + headers.keySet())
                + "]";
    }
}
