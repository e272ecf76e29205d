package dev.mcptasks.mcp;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.stdio.StdioTransportFactory;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerMain;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The reference server reached over a real transport: embedded over HTTP, or as a child JVM over stdio. Request
 * timeouts run on a manual clock, so a test fires them when it chooses.
 */
final class ReferenceHarness implements AutoCloseable {
    static final String SERVER = "ref";
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** Which transport reaches the server. */
    enum Via { STDIO, HTTP }

    final ManualClock clock = new ManualClock();
    final ObservedTransportFactory observed;
    final McpSessions sessions;
    private final ReferenceServer embedded;

    ReferenceHarness(Via via, ReferenceServerOptions options, boolean sessionBound) {
        McpServerSpec spec;
        if (via == Via.HTTP) {
            embedded = new ReferenceServer(options);
            spec = McpServerSpec.http(SERVER, embedded.startHttp(0), Map.of());
            observed = new ObservedTransportFactory(new HttpTransportFactory());
        } else {
            embedded = null;
            spec = Endpoints.javaStdio(SERVER, ReferenceServerMain.class, List.of("--stdio"), 0);
            observed = new ObservedTransportFactory(new StdioTransportFactory());
        }
        sessions = new McpSessions(List.of(new McpServerSettings(spec, TIMEOUT, sessionBound)), List.of(observed),
                clock, "test");
    }

    McpSession session() {
        return sessions.session(SERVER).orElseThrow();
    }

    @Override
    public void close() {
        sessions.close();
        if (embedded != null) {
            embedded.close();
        }
    }
}
