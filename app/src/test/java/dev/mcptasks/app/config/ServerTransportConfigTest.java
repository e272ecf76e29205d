package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code transport} key (and the other clients' {@code type}) choose how a server is reached. */
class ServerTransportConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.of("TOKEN", "s3cret")::get, Path.of("."));

    private ServerConfig server(String entry) {
        return loader.parse("test.json", "{\"mcpServers\": {\"s\": " + entry + "}}").servers().get("s");
    }

    private void assertError(String entry, String key, String messagePart) {
        assertThatThrownBy(() -> server(entry)).isInstanceOf(ConfigException.class)
                .hasMessageContaining(messagePart).hasMessageNotContaining("\n")
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }

    @Test
    void aUrlWithoutATransportIsDetected() {
        ServerConfig server = server("{\"url\": \"http://h/mcp\"}");

        assertThat(server.transport()).isNull();
        assertThat(server.toSpec().transport()).isNull();
        assertThat(server.toSpec().transportDetected()).isTrue();
        assertThat(server("{\"url\": \"http://h/mcp\", \"transport\": \"auto\"}").toSpec().transportDetected())
                .isTrue();
    }

    @Test
    void transportSseSelectsTheLegacyTransport() {
        ServerConfig server = server("{\"url\": \"http://h/sse\", \"transport\": \"sse\","
                + " \"headers\": {\"Authorization\": \"Bearer ${env:TOKEN}\"}}");

        assertThat(server.transport()).isEqualTo("sse");
        assertThat(server.toSpec().transport()).isEqualTo("sse");
        assertThat(server.toMcpSettings().spec().transport()).isEqualTo("sse");
        assertThat(server.toString()).contains("transport=sse").doesNotContain("s3cret");
    }

    @Test
    void theOtherClientsTypeKeySelectsItToo() {
        assertThat(server("{\"url\": \"http://h/sse\", \"type\": \"sse\"}").toSpec().transport()).isEqualTo("sse");
        assertThat(server("{\"url\": \"http://h/mcp\", \"type\": \"http\"}").toSpec().transport()).isEqualTo("http");
        assertThat(server("{\"url\": \"http://h/mcp\", \"type\": \"streamable-http\"}").toSpec().transport())
                .isEqualTo("http");
        assertThat(server("{\"url\": \"http://h/mcp\", \"transport\": \"http\", \"type\": \"http\"}").transport())
                .isEqualTo("http");
        assertThat(server("{\"command\": \"x\", \"transport\": \"stdio\"}").toSpec().transport()).isEqualTo("stdio");
    }

    @Test
    void unknownOrContradictoryValuesAreOneLineErrorsNamingTheKey() {
        assertError("{\"url\": \"http://h/mcp\", \"transport\": \"websocket\"}", "mcpServers.s.transport",
                "must be auto, http or sse for a server with a url, was 'websocket'");
        assertError("{\"url\": \"http://h/mcp\", \"transport\": \"stdio\"}", "mcpServers.s.transport",
                "must be auto, http or sse");
        assertError("{\"command\": \"x\", \"transport\": \"sse\"}", "mcpServers.s.transport",
                "must be stdio for a server with a command, was 'sse'");
        assertError("{\"url\": \"http://h/mcp\", \"type\": \"ws\"}", "mcpServers.s.type", "must be 'http'");
        assertError("{\"command\": \"x\", \"type\": \"sse\"}", "mcpServers.s.type", "must be 'stdio'");
        assertError("{\"url\": \"http://h/mcp\", \"transport\": \"sse\", \"type\": \"http\"}", "mcpServers.s.type",
                "disagrees with mcpServers.s.transport");
        assertError("{\"url\": \"http://h/mcp\", \"transport\": 3}", "mcpServers.s.transport", "must be a string");
    }
}
