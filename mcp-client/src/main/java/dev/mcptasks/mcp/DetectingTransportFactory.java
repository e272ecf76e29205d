package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Transports for a url whose transport is not configured, found the way other MCP clients find it: Streamable HTTP
 * first, and when the first POST is answered 400, 404 or 405, the legacy HTTP+SSE transport of 2024-11-05 at the same
 * url ({@link DetectingTransport}). Once a server's transport is known (for this process, {@link DetectedTransports}),
 * its transports are made by the right factory directly.
 */
final class DetectingTransportFactory implements McpTransportFactory {
    private static final Logger log = LoggerFactory.getLogger(DetectingTransportFactory.class);
    static final String KIND = "detect";

    private final McpTransportFactory streamable;
    private final McpTransportFactory legacy;
    private final DetectedTransports memory;

    /**
     * @param streamable the factory that reaches the unconfigured spec (Streamable HTTP)
     * @param legacy the factory that reaches the spec with its transport set to {@code sse}
     */
    DetectingTransportFactory(McpTransportFactory streamable, McpTransportFactory legacy, DetectedTransports memory) {
        this.streamable = streamable;
        this.legacy = legacy;
        this.memory = memory;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public boolean supports(McpServerSpec spec) {
        return spec.transportDetected() && streamable.supports(spec);
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        String known = memory.kindOf(spec).orElse(null);
        if (McpServerSpec.SSE.equals(known)) {
            return legacy.create(spec.withTransport(McpServerSpec.SSE));
        }
        if (known != null) {
            return streamable.create(spec);
        }
        return new DetectingTransport(spec, streamable, legacy, this);
    }

    /** A server not (yet) known to speak the legacy transport may have sessions of Streamable HTTP to speak in. */
    @Override
    public boolean canResume(McpServerSpec spec) {
        return !McpServerSpec.SSE.equals(memory.kindOf(spec).orElse(null)) && streamable.canResume(spec);
    }

    @Override
    public McpTransport resume(McpServerSpec spec, String sessionId, String protocolVersion) {
        return streamable.resume(spec, sessionId, protocolVersion);
    }

    /** The first POST worked: a Streamable HTTP server. */
    void streamableWorks(McpServerSpec spec) {
        if (memory.remember(spec, McpServerSpec.HTTP)) {
            log.debug("server '{}' speaks Streamable HTTP", spec.name());
        }
    }

    /** The first POST was refused and the legacy transport worked: said once per process and server. */
    void legacyWorks(McpServerSpec spec, McpTransportException refusal) {
        if (memory.remember(spec, McpServerSpec.SSE)) {
            log.info("server '{}': {} answered the first Streamable HTTP POST with HTTP {}; it speaks the legacy"
                    + " HTTP+SSE transport (2024-11-05), used for it from now on", spec.name(), spec.url(),
                    refusal.httpStatus());
        }
    }
}
