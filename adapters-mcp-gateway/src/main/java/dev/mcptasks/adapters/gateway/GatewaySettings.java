package dev.mcptasks.adapters.gateway;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How the gateway's Streamable HTTP endpoint listens and whom it admits.
 *
 * @param bindHost the address to bind (default {@code 127.0.0.1}); without bearer tokens only a loopback address is
 *     allowed, because the endpoint is then open to anyone who can reach it
 * @param port the TCP port, 0 for an ephemeral one
 * @param bearerTokens bearer token -> principal; empty: no authentication, every caller is {@link #anonymousPrincipal}
 * @param allowedOrigins {@code Origin} values admitted besides loopback origins (loopback origins are admitted only
 *     on a loopback bind address); a request carrying any other Origin gets 403
 * @param allowedHosts {@code Host} names (without port) admitted besides the loopback names; when bound to loopback
 *     any other Host gets 403 (DNS rebinding), elsewhere the check applies only once a host is configured
 * @param maxRequestBytes the largest POST body read; a larger one gets 413 before it is read
 * @param anonymousPrincipal the principal of every caller when no bearer tokens are configured
 * @param streaming when and how a slow answer becomes an SSE stream
 * @param sessionIdleTimeout how long a 2025 session lives with no request, no answer pending and no GET stream
 * @param connections how long a connection may take to send its next whole request, and how many may be open
 *     connected before the gateway ends it, as a DELETE would (clients often exit without one); zero: never
 */
public record GatewaySettings(
        String bindHost,
        int port,
        Map<String, String> bearerTokens,
        Set<String> allowedOrigins,
        Set<String> allowedHosts,
        int maxRequestBytes,
        String anonymousPrincipal,
        Streaming streaming,
        Duration sessionIdleTimeout,
        Connections connections) {

    public static final String DEFAULT_BIND_HOST = "127.0.0.1";
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;
    public static final String DEFAULT_ANONYMOUS_PRINCIPAL = "local";
    public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

    /**
     * SSE timing.
     *
     * @param sseAfter how long an answer may take before a client that accepts {@code text/event-stream} gets an SSE
     *     stream instead of waiting for {@code application/json} (zero: at once unless the answer is already there)
     * @param keepAliveEvery the interval of {@code : keepalive} comments on an open stream (zero: none)
     * @param retry the reconnection delay announced in each stream's priming event ({@code retry:})
     * @param pollAfter how long a 2025 POST stream stays connected while its answer is pending; after that the gateway
     *     closes the connection and the client resumes with GET and {@code Last-Event-ID} (SEP-1699 polling); zero:
     *     never closed by the gateway
     */
    public record Streaming(Duration sseAfter, Duration keepAliveEvery, Duration retry, Duration pollAfter) {
        public Streaming {
            requireNonNegative(sseAfter, "sseAfter");
            requireNonNegative(keepAliveEvery, "keepAliveEvery");
            requireNonNegative(retry, "retry");
            requireNonNegative(pollAfter, "pollAfter");
        }

        /** An SSE stream after one second, keep-alive comments every 15 s, reconnect after 1 s, never closed early. */
        public static Streaming defaults() {
            return new Streaming(Duration.ofSeconds(1), Duration.ofSeconds(15), Duration.ofSeconds(1), Duration.ZERO);
        }

        static void requireNonNegative(Duration value, String name) {
            Objects.requireNonNull(value, name);
            if (value.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative: " + value);
            }
        }
    }

    public GatewaySettings {
        Objects.requireNonNull(bindHost, "bindHost");
        if (bindHost.isBlank()) {
            throw new IllegalArgumentException("bindHost must not be blank");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535: " + port);
        }
        bearerTokens = Map.copyOf(Objects.requireNonNull(bearerTokens, "bearerTokens"));
        bearerTokens.forEach((token, principal) -> {
            if (token.isBlank() || principal.isBlank()) {
                throw new IllegalArgumentException("a bearer token and its principal must not be blank");
            }
        });
        allowedOrigins = Set.copyOf(Objects.requireNonNull(allowedOrigins, "allowedOrigins"));
        allowedHosts = Set.copyOf(Objects.requireNonNull(allowedHosts, "allowedHosts"));
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be positive: " + maxRequestBytes);
        }
        Objects.requireNonNull(anonymousPrincipal, "anonymousPrincipal");
        if (anonymousPrincipal.isBlank()) {
            throw new IllegalArgumentException("anonymousPrincipal must not be blank");
        }
        Objects.requireNonNull(streaming, "streaming");
        Streaming.requireNonNegative(sessionIdleTimeout, "sessionIdleTimeout");
        Objects.requireNonNull(connections, "connections");
    }

    /**
     * Bounds on connections, so that idle, half-sent and too many connections cannot take the gateway down.
     *
     * @param requestTimeout how long a connection may take, from opening or from the end of its last answer, to send
     *     its next request whole (headers and body); an idle keep-alive connection and a slowloris alike are closed
     *     then. A request being answered (a held call, an SSE stream) has no such bound
     * @param maxConnections the most connections open at once; one more is closed at once
     * @param maxSessionsPerPrincipal the most live sessions one principal holds; its next {@code initialize} ends
     *     its least recently used one (a client that leaks sessions costs its own oldest, never another's)
     */
    public record Connections(Duration requestTimeout, int maxConnections, int maxSessionsPerPrincipal) {
        public Connections {
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            if (requestTimeout.isZero() || requestTimeout.isNegative()) {
                throw new IllegalArgumentException("requestTimeout must be positive: " + requestTimeout);
            }
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be positive: " + maxConnections);
            }
            if (maxSessionsPerPrincipal < 1) {
                throw new IllegalArgumentException("maxSessionsPerPrincipal must be positive: "
                        + maxSessionsPerPrincipal);
            }
        }

        /** 30 s for the next whole request, 1,024 connections, 100 sessions per principal. */
        public static Connections defaults() {
            return new Connections(Duration.ofSeconds(30), 1024, 100);
        }
    }

    public GatewaySettings withConnections(Connections value) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, value);
    }

    /**
     * Loopback on an ephemeral port, no tokens (principal {@code local}), no extra origins or hosts, 4 MiB bodies,
     * idle sessions ended after 30 minutes.
     */
    public static GatewaySettings defaults() {
        return new GatewaySettings(DEFAULT_BIND_HOST, 0, Map.of(), Set.of(), Set.of(), DEFAULT_MAX_REQUEST_BYTES,
                DEFAULT_ANONYMOUS_PRINCIPAL, Streaming.defaults(), DEFAULT_SESSION_IDLE_TIMEOUT,
                Connections.defaults());
    }

    public GatewaySettings withBind(String host, int newPort) {
        return new GatewaySettings(host, newPort, bearerTokens, allowedOrigins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withBearerTokens(Map<String, String> tokens) {
        return new GatewaySettings(bindHost, port, tokens, allowedOrigins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withAllowedOrigins(Set<String> origins) {
        return new GatewaySettings(bindHost, port, bearerTokens, origins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withAllowedHosts(Set<String> hosts) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, hosts, maxRequestBytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withMaxRequestBytes(int bytes) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, allowedHosts, bytes,
                anonymousPrincipal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withAnonymousPrincipal(String principal) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, allowedHosts, maxRequestBytes,
                principal, streaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withStreaming(Streaming newStreaming) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, newStreaming, sessionIdleTimeout, connections);
    }

    public GatewaySettings withSessionIdleTimeout(Duration timeout) {
        return new GatewaySettings(bindHost, port, bearerTokens, allowedOrigins, allowedHosts, maxRequestBytes,
                anonymousPrincipal, streaming, timeout, connections);
    }

    /** Excludes the tokens themselves, so that logging the settings leaks no secret. */
    @Override
    public String toString() {
        return "GatewaySettings[bindHost=" + bindHost + ", port=" + port + ", bearerTokens=" + bearerTokens.size()
                + " configured, allowedOrigins=" + allowedOrigins + ", allowedHosts=" + allowedHosts
                + ", maxRequestBytes=" + maxRequestBytes + ", anonymousPrincipal=" + anonymousPrincipal
                + ", streaming=" + streaming + ", sessionIdleTimeout=" + sessionIdleTimeout + "]";
    }
}
