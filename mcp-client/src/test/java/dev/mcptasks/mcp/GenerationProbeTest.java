package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.McpSessionTest.await;
import static dev.mcptasks.mcp.McpSessionTest.failureOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How a session finds its generation: the server/discover probe, its fallback to initialize, and the pin. */
class GenerationProbeTest {
    static final String DISCOVER = "{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{},"
            + "\"extensions\":{\"io.modelcontextprotocol/tasks\":{}}},\"resultType\":\"complete\",\"ttlMs\":0,"
            + "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"peer2\",\"version\":\"0.1.0\"}}}";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final FakeServer server = new FakeServer();
    private final ManualClock clock = new ManualClock();
    private McpSession session = session(null);

    private McpSession session(ProtocolGeneration pin) {
        return new McpSession(new McpServerSettings(FakeServer.spec(), TIMEOUT, false, pin), server, clock,
                McpSessionTest.CALLBACKS, "test");
    }

    @AfterEach
    void close() {
        session.close();
    }

    private java.util.List<String> methods() {
        return server.last().sent.stream().map(m -> m.path("method").asText()).toList();
    }

    @Test
    void aDiscoverResultMeansThe2026GenerationWithoutInitialize() throws Exception {
        server.on("server/discover", request -> json(DISCOVER));
        server.on("echo", request -> request.path("params"));

        McpHandshake handshake = await(session.connect());
        await(session.request("echo", json("{\"x\":1}")));

        assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(handshake.protocolVersion()).isEqualTo("2026-07-28");
        assertThat(handshake.capabilities().tasksExtension()).isTrue();
        assertThat(handshake.supportsTaskToolCalls()).isTrue();
        assertThat(handshake.serverInfo().path("name").asText()).isEqualTo("peer2");
        assertThat(session.generation()).contains(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(methods()).containsExactly("server/discover", "echo");
        assertThat(server.initializations).hasValue(0);
        // no GET stream or session header for a modern connection: the transport never heard of a version
        assertThat(server.last().negotiatedVersion).isNull();
        for (JsonNode request : server.last().sent) {
            JsonNode meta = request.path("params").path("_meta");
            assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asText()).isEqualTo("2026-07-28");
            assertThat(meta.path("io.modelcontextprotocol/clientCapabilities")).isEqualTo(json(
                    "{\"extensions\":{\"io.modelcontextprotocol/tasks\":{}},\"elicitation\":{\"form\":{}}}"));
            assertThat(meta.path("io.modelcontextprotocol/clientInfo")).isEqualTo(
                    json("{\"name\":\"mcp-tasks\",\"version\":\"test\"}"));
        }
        assertThat(server.last().lastRequest("echo").path("params").path("x").asInt()).isEqualTo(1);
    }

    @Test
    void methodNotFoundMeans2025AndInitializesOnTheSameConnection() throws Exception {
        McpHandshake handshake = await(session.connect());

        assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(handshake.protocolVersion()).isEqualTo("2025-11-25");
        assertThat(server.transports).hasSize(1);
        assertThat(methods()).containsExactly("server/discover", "initialize", "notifications/initialized");
        assertThat(server.last().negotiatedVersion).isEqualTo("2025-11-25");
    }

    @Test
    void serverNotInitializedMeans2025() throws Exception {
        // what an SDK v1 server answers over HTTP (400 with this JSON-RPC error)
        server.on("server/discover", (transport, request) -> {
            throw new FakeServer.RpcError(-32000, "Bad Request: Server not initialized");
        });
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(methods()).startsWith("server/discover", "initialize");
    }

    @Test
    void anHttp4xxWithoutAJsonRpcErrorMeans2025() throws Exception {
        server.sendFailure = Map.entry("server/discover", McpTransportException.httpStatus(405, "Method Not Allowed"));
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(methods()).containsExactly("server/discover", "initialize", "notifications/initialized");
    }

    @Test
    void silenceWithinTheProbeTimeoutMeans2025() throws Exception {
        server.on("server/discover", (transport, request) -> null);
        CompletableFuture<McpHandshake> connecting = session.connect();
        assertThat(connecting).isNotDone();

        clock.advance(McpSession.PROBE_TIMEOUT);

        assertThat(await(connecting).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        // the probe is not cancelled with a notification: before initialize a legacy server must see nothing else
        assertThat(methods()).containsExactly("server/discover", "initialize", "notifications/initialized");
    }

    @Test
    void anUnsupportedVersionErrorListingOursIsRetriedAndStays2026() throws Exception {
        java.util.concurrent.atomic.AtomicInteger probes = new java.util.concurrent.atomic.AtomicInteger();
        server.on("server/discover", (transport, request) -> {
            if (probes.incrementAndGet() == 1) {
                throw new FakeServer.RpcError(-32022, "Unsupported protocol version",
                        json("{\"supported\":[\"2026-07-28\"],\"requested\":\"2026-07-28\"}"));
            }
            return json(DISCOVER);
        });
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(methods()).containsExactly("server/discover", "server/discover");
        assertThat(server.initializations).hasValue(0);
    }

    @Test
    void anUnsupportedVersionErrorWithoutOursFailsClearlyWithoutFallingBack() {
        server.on("server/discover", (transport, request) -> {
            throw new FakeServer.RpcError(-32022, "Unsupported protocol version: 2026-07-28",
                    json("{\"supported\":[\"2027-03-01\"],\"requested\":\"2026-07-28\"}"));
        });
        assertThat(failureOf(session.connect())).isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("supports [2027-03-01]").hasMessageContaining("2026-07-28");
        assertThat(server.initializations).hasValue(0);
        assertThat(session.generation()).isEmpty();
    }

    @Test
    void anUnsupportedVersionErrorListingA2025VersionInitializes() throws Exception {
        server.on("server/discover", (transport, request) -> {
            throw new FakeServer.RpcError(-32022, "Unsupported protocol version",
                    json("{\"supported\":[\"2025-11-25\"],\"requested\":\"2026-07-28\"}"));
        });
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
    }

    @Test
    void anAnswerThatIsNoDiscoverResultMeans2025() throws Exception {
        // a peer that echoes any method
        server.on("server/discover", request -> request.path("params"));
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
    }

    @Test
    void theOutcomeIsRememberedAcrossConnections() throws Exception {
        server.on("server/discover", request -> json(DISCOVER));
        await(session.connect());
        server.last().die(McpTransportException.Kind.PROCESS_EXITED);
        server.on("echo", request -> request.path("params"));

        await(session.request("echo", json("{}")));

        assertThat(server.transports).hasSize(2);
        assertThat(methods()).containsExactly("echo");
    }

    @Test
    void a2025PinSkipsTheProbe() throws Exception {
        session = session(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(session.generation()).contains(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(methods()).containsExactly("initialize", "notifications/initialized");
    }

    @Test
    void a2026PinSkipsTheProbeAndFramesTheFirstRequest() throws Exception {
        session = session(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        server.on("echo", request -> request.path("params"));

        McpHandshake handshake = await(session.connect());
        await(session.request("echo", json("{}")));

        assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(handshake.capabilitiesKnown()).isFalse();
        assertThat(methods()).containsExactly("echo");
        assertThat(server.last().lastRequest("echo").at("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .asText()).isEqualTo("2026-07-28");
    }

    @Test
    void aProbeThatEndsTheConnectionFailsThisConnectAsNotSentAndTheNextOneInitializes() throws Exception {
        // a legacy stdio server that exits on anything before initialize
        server.sendFailure = Map.entry("server/discover", new McpTransportException(
                McpTransportException.Kind.PROCESS_EXITED, "exited with code 1"));
        assertThat(failureOf(session.request("echo", null))).isInstanceOfSatisfying(McpTransportFailure.class,
                failure -> assertThat(failure.sent()).isFalse());
        assertThat(session.generation()).isEmpty();

        assertThat(await(session.connect()).generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(server.transports).hasSize(2);
        assertThat(methods()).containsExactly("initialize", "notifications/initialized");
    }
}
