package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.mcp.ReferenceHarness.Via;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The probe against a real 2025-11-25 server over both transports: over stdio it answers server/discover with
 * -32601; over HTTP with 400 and -32000 ("Mcp-Session-Id header is required"), which must reach the probe as that
 * JSON-RPC error and lead to initialize.
 */
class ProbeOverTransportsTest {

    @ParameterizedTest
    @EnumSource(Via.class)
    void a2025ServerIsProbedThenInitialized(Via via) throws Exception {
        try (ReferenceHarness harness = new ReferenceHarness(via, ReferenceServerOptions.defaults(), true)) {
            McpHandshake handshake = await(harness.session().connect());

            assertThat(handshake.generation()).isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
            assertThat(handshake.supportsTaskToolCalls()).isTrue();
            List<String> sent = new ArrayList<>(harness.observed.sent);
            assertThat(sent.get(0)).contains("\"method\":\"server/discover\"")
                    .contains("io.modelcontextprotocol/protocolVersion");
            assertThat(sent.get(1)).contains("\"method\":\"initialize\"");
            String probeId = FakeServer.json(sent.get(0)).get("id").toString();
            String answer = harness.observed.received.stream().filter(m -> m.contains("\"id\":" + probeId))
                    .findFirst().orElseThrow();
            assertThat(answer).contains(via == Via.HTTP ? "-32000" : "-32601");
        }
    }
}
