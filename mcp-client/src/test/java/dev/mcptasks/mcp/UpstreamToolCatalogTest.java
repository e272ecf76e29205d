package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.catalog.ListedTool;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import dev.mcptasks.testkit.ManualClock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The gateway's view of an upstream server's tools: every page, each tool object whole, failures named. */
class UpstreamToolCatalogTest {
    private final FakeServer server = new FakeServer();
    private final McpSessions sessions = new McpSessions(List.of(McpServerSettings.of(FakeServer.spec())),
            List.of(server), new ManualClock(), "test");
    private final UpstreamToolCatalog catalog = new UpstreamToolCatalog(sessions);

    @AfterEach
    void close() {
        sessions.close();
    }

    @Test
    void everyPageIsListedInServerOrderWithEachToolObjectUnchanged() throws Exception {
        server.on("tools/list", request -> request.path("params").path("cursor").isMissingNode()
                ? json("{\"tools\":[{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"},\"x-vendor\":1}],"
                        + "\"nextCursor\":\"p2\"}")
                : json("{\"tools\":[{\"name\":\"a\",\"execution\":{\"taskSupport\":\"required\"}}]}"));

        List<ListedTool> tools = catalog.listTools("fake").get(5, TimeUnit.SECONDS);

        assertThat(tools).extracting(ListedTool::name).containsExactly("b", "a");
        assertThat(json(tools.get(0).toolJson()))
                .isEqualTo(json("{\"name\":\"b\",\"inputSchema\":{\"type\":\"object\"},\"x-vendor\":1}"));
        assertThat(json(tools.get(1).toolJson()).path("execution").path("taskSupport").asText())
                .isEqualTo("required");
    }

    @Test
    void anUnknownServerAndAnUnreachableOneFailNamingTheServer() {
        assertThatThrownBy(() -> catalog.listTools("nope").get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(UpstreamUnavailableException.class).hasMessageContaining("'nope'")
                .hasMessageContaining("not configured");

        server.sendFailure = Map.entry("tools/list", McpTransportException.httpStatus(503, "HTTP 503"));
        assertThatThrownBy(() -> catalog.listTools("fake").get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(UpstreamUnavailableException.class)
                .hasMessageContaining("'fake'").hasMessageContaining("503");
    }
}
