package dev.mcptasks.adapters.gateway;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.testkit.ManualClock;

/** A started HTTP gateway over a {@link FakeDispatcher}, with a wire client and the 2025 handshake. */
final class GatewayFixture implements AutoCloseable {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}}}";

    final FakeDispatcher dispatcher = new FakeDispatcher();
    final ManualClock clock;
    final HttpGateway gateway;
    final WireClient client;

    GatewayFixture(GatewaySettings settings) {
        this(settings, FrontSessionStore.NONE, new ManualClock());
    }

    /** A gateway keeping its sessions in {@code sessions}, on {@code clock} (shared by gateways on one store). */
    GatewayFixture(GatewaySettings settings, FrontSessionStore sessions, ManualClock clock) {
        this(settings, sessions, clock, Metrics.NONE);
    }

    /** A gateway telling {@code metrics} its gauges. */
    GatewayFixture(GatewaySettings settings, Metrics metrics) {
        this(settings, FrontSessionStore.NONE, new ManualClock(), metrics);
    }

    private GatewayFixture(GatewaySettings settings, FrontSessionStore sessions, ManualClock clock, Metrics metrics) {
        this.clock = clock;
        gateway = HttpGateway.start(settings, dispatcher, clock, metrics, sessions);
        client = new WireClient(gateway.address());
    }

    GatewayFixture() {
        this(GatewaySettings.defaults());
    }

    /** Runs {@code initialize} and returns the new session's id. */
    String initialize() {
        try (WireClient.Response response = client.post(INITIALIZE).send()) {
            if (response.status() != 200 || response.header(HttpReplies.SESSION_ID) == null) {
                throw new AssertionError("initialize failed: " + response.status() + " " + response.body());
            }
            response.body();
            return response.header(HttpReplies.SESSION_ID);
        }
    }

    /** A 2025 request in {@code session}. */
    WireClient.Request request(String session, int id, String method) {
        return client.post("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}")
                .header(HttpReplies.SESSION_ID, session)
                .header("MCP-Protocol-Version", "2025-11-25");
    }

    @Override
    public void close() {
        gateway.close();
    }
}
