package dev.mcptasks.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-worker registry: one long-lived session per configured server, configuration checked up front. */
class McpSessionsTest {
    private final FakeServer server = new FakeServer();

    @Test
    void oneSessionPerServerIsReusedAndUnknownServersAreAbsent() throws Exception {
        try (McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(FakeServer.spec())), List.of(server),
                new ManualClock(), "test")) {
            McpSession first = sessions.session("fake").orElseThrow();
            assertThat(sessions.session("fake")).containsSame(first);
            assertThat(sessions.session("other")).isEmpty();
            assertThat(sessions.settings("fake").orElseThrow().tasksProcessLocal())
                    .as("an HTTP server shares its tasks across sessions unless configured otherwise").isFalse();
            McpSessionTest.await(first.connect());
            sessions.close();
            assertThat(server.last().closed).isDone();
        }
    }

    @Test
    void duplicateNamesAndUnreachableServersAreRejected() {
        McpServerSettings fake = McpServerSettings.of(FakeServer.spec());
        assertThatThrownBy(() -> new McpSessions(List.of(fake, fake), List.of(server), new ManualClock(), "test"))
                .hasMessageContaining("configured twice");
        McpServerSpec stdio = McpServerSpec.stdio("local", "/bin/true", List.of(), Map.of());
        assertThatThrownBy(() -> new McpSessions(List.of(McpServerSettings.of(stdio)), List.of(), new ManualClock(),
                "test")).hasMessageContaining("no MCP transport can reach server 'local'");
    }

    @Test
    void aSessionOfTheOtherGenerationIsASecondPinnedSessionMadeOnce() throws Exception {
        McpServerSettings pinned = new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(5), false,
                ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        try (McpSessions sessions = new McpSessions(List.of(pinned), List.of(server), new ManualClock(), "test")) {
            McpSession own = sessions.session("fake").orElseThrow();

            assertThat(McpSessionTest.await(sessions.speaking(own, ProtocolGeneration.TASKS_EXTENSION_2026_07_28)))
                    .isSameAs(own);
            McpSession v2025 = McpSessionTest.await(sessions.speaking(own, ProtocolGeneration.TASKS_2025_11_25));
            assertThat(v2025).isNotSameAs(own);
            assertThat(v2025.generation()).contains(ProtocolGeneration.TASKS_2025_11_25);
            assertThat(McpSessionTest.await(sessions.speaking(own, ProtocolGeneration.TASKS_2025_11_25)))
                    .isSameAs(v2025);
            // choosing sent nothing: a pinned session knows its generation without connecting
            assertThat(server.transports).isEmpty();

            McpSessionTest.await(v2025.connect());
            sessions.close();
            assertThat(server.last().closed).isDone();
        }
    }
}
