package dev.mcptasks.adapters.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.testkit.transport.EverythingPeerScript;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Interop with the third-party server-everything in its {@code sse} mode (the TypeScript SDK's
 * {@code SSEServerTransport}): the pinned copy is installed by {@code ../shared/peer/run-everything.sh}, then run as
 * {@code node <entry> sse} on a loopback port. Skipped, with the reason, where Node or the peer script is missing.
 */
class EverythingSseInteropTest {
    private Process server;
    private McpTransport transport;

    @AfterEach
    void stop() {
        if (transport != null) {
            transport.close();
        }
        if (server != null) {
            server.descendants().forEach(ProcessHandle::destroy);
            server.destroy();
        }
    }

    @Test
    void initializesListsToolsAndCallsEchoOverTheLegacyTransport() throws Exception {
        Path entry = installedEntry();
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ProcessBuilder builder = new ProcessBuilder("node", "--import",
                entry.getParent().getParent().getParent().getParent().getParent().resolve("loopback-listen.mjs")
                        .toString(), entry.toString(), "sse")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("PORT", Integer.toString(port));
        server = builder.start();
        CompletableFuture<Void> listening = new CompletableFuture<>();
        Thread stderr = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(server.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    if (line.contains("running on port")) {
                        listening.complete(null);
                    }
                }
            } catch (IOException e) {
                listening.completeExceptionally(e);
            }
            listening.completeExceptionally(new IllegalStateException("server-everything exited"));
        }, "everything-stderr");
        stderr.setDaemon(true);
        stderr.start();
        listening.get(60, TimeUnit.SECONDS);

        RecordingListener listener = new RecordingListener();
        transport = new SseTransportFactory().create(McpServerSpec.sse("everything",
                URI.create("http://127.0.0.1:" + port + "/sse"), Map.of("Authorization", "Bearer unused")));
        transport.start(listener);

        transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2024-11-05\",\"capabilities\":{},\"clientInfo\":{\"name\":\"interop\",\"version\":\"1\"}}}")
                .get(30, TimeUnit.SECONDS);
        String initialized = listener.nextMessage();
        assertThat(initialized).contains("\"id\":1").contains("\"protocolVersion\":\"2024-11-05\"")
                .contains("mcp-servers/everything");
        transport.protocolVersionNegotiated("2024-11-05");
        transport.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").get(30, TimeUnit.SECONDS);
        transport.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}")
                .get(30, TimeUnit.SECONDS);
        transport.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"message\":\"h\u00e9llo over legacy SSE\"}}}").get(30, TimeUnit.SECONDS);

        List<String> answers = new ArrayList<>();
        while (answers.stream().noneMatch(message -> message.contains("\"id\":3"))) {
            answers.add(listener.nextMessage());
        }
        assertThat(answers).anySatisfy(message -> assertThat(message).contains("\"id\":2").contains("\"echo\""));
        assertThat(answers).anySatisfy(message -> assertThat(message).contains("\"id\":3")
                .contains("h\u00e9llo over legacy SSE"));
        assertThat(listener.errors()).isEmpty();
        assertThat(listener.closedCalls()).isZero();
    }

    /** The installed server-everything entry point, installing it through the peer script on first use. */
    private static Path installedEntry() throws IOException, InterruptedException {
        assumeTrue(EverythingPeerScript.onPath("node"), "node is not on the PATH: server-everything interop skipped");
        Optional<Path> script = EverythingPeerScript.script();
        assumeTrue(script.isPresent(), "../shared/peer/run-everything.sh not found: server-everything interop skipped");
        // with no mode the script installs the pinned package (if needed) and exits with its usage
        Process install = new ProcessBuilder(script.get().toString())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(install.waitFor(300, TimeUnit.SECONDS)).as("the peer installs within 300 s").isTrue();
        String tmp = System.getenv().getOrDefault("TMPDIR", "/tmp");
        List<Path> dirs = new ArrayList<>(List.of(script.get().getParent()));
        String override = System.getenv("MCP_PEER_DIR");
        dirs.add(override != null && !override.isBlank() ? Path.of(override) : Path.of(tmp, "mcp-tasks-interop-peer"));
        for (Path dir : dirs) {
            Path entry = dir.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
            if (Files.isRegularFile(entry) && Files.isRegularFile(dir.resolve("loopback-listen.mjs"))) {
                return entry;
            }
        }
        assumeTrue(false, "server-everything is not installed in " + dirs + ": interop skipped");
        throw new IllegalStateException("unreachable");
    }
}
