package dev.mcptasks.adapters.stdio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Stdio specifics beyond the contract: environment policy, start failure, exit codes, the shutdown ladder. */
class StdioMcpTransportTest {
    private static final Duration SHORT_GRACE = Duration.ofMillis(300);

    @TempDir
    Path dir;

    @Test
    void childSeesOnlyTheSpecifiedEnvironmentAndPath() throws Exception {
        McpServerSpec spec = ScriptedPeerProcess.spec(Map.of("API_TOKEN", "secret"), 0, null);
        RecordingListener listener = new RecordingListener();
        try (StdioMcpTransport transport = new StdioMcpTransport(spec, SHORT_GRACE)) {
            transport.start(listener);
            transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"env\"}").get(15, TimeUnit.SECONDS);

            assertThat(listener.nextMessage()).isEqualTo(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"echo\":[\"API_TOKEN\",\"PATH\"]}}");
        }
        assertThat(spec.toString()).doesNotContain("secret");
    }

    @Test
    void missingCommandFailsToConnectNamingTheCommand() {
        McpServerSpec spec = McpServerSpec.stdio("ghost", "/no/such/mcp-server-binary", List.of(), Map.of());
        StdioMcpTransport transport = new StdioMcpTransport(spec, SHORT_GRACE);

        assertThatThrownBy(() -> transport.start(new RecordingListener()))
                .isInstanceOfSatisfying(McpTransportException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.CONNECT_FAILED);
                    assertThat(e.sent()).isFalse();
                })
                .hasMessageContaining("/no/such/mcp-server-binary")
                .hasMessageContaining("ghost");
        assertThat(transport.send("{}")).isCompletedExceptionally();
        transport.close();
    }

    @Test
    void exitIsReportedWithItsCode() throws Exception {
        RecordingListener listener = new RecordingListener();
        try (StdioMcpTransport transport = new StdioMcpTransport(
                ScriptedPeerProcess.spec(Map.of(), 0, null), SHORT_GRACE)) {
            transport.start(listener);
            transport.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"exit\",\"params\":{\"code\":7}}");

            McpTransportException cause = listener.closed().get(15, TimeUnit.SECONDS);
            assertThat(cause.kind()).isEqualTo(Kind.PROCESS_EXITED);
            assertThat(cause).hasMessageContaining("exited with code 7").hasMessageContaining("'peer'");
        }
    }

    @Test
    void workingDirectoryIsApplied() throws Exception {
        RecordingListener listener = new RecordingListener();
        McpServerSpec spec = new McpServerSpec("pwd", "sh", List.of("-c", "read line; printf '{\"cwd\":\"%s\"}\\n' \"$PWD\""),
                Map.of(), dir, null, null, null, null, 0);
        try (StdioMcpTransport transport = new StdioMcpTransport(spec, SHORT_GRACE)) {
            transport.start(listener);
            transport.send("{}").get(15, TimeUnit.SECONDS);

            assertThat(listener.nextMessage()).isEqualTo("{\"cwd\":\"" + dir.toRealPath() + "\"}");
        }
    }

    @Test
    void childIgnoringStdinIsTerminated() throws Exception {
        assertStopped(new McpServerSpec("sleeper", "sleep", List.of("60"), Map.of(), null, null, null, null, null, 0));
    }

    @Test
    void childIgnoringSigtermIsKilled() throws Exception {
        assertStopped(new McpServerSpec("stubborn", "sh", List.of("-c", "trap '' TERM; while true; do sleep 1; done"),
                Map.of(), null, null, null, null, null, 0));
    }

    @Test
    void aCloseThatMeetsAnotherInProgressReturnsOnlyOnceTheChildIsGone() throws Exception {
        StdioMcpTransport transport = new StdioMcpTransport(new McpServerSpec("stubborn", "sh",
                List.of("-c", "trap '' TERM; while true; do sleep 1; done"), Map.of(), null, null, null, null, null, 0),
                SHORT_GRACE);
        transport.start(new RecordingListener());
        ProcessHandle child = ProcessHandle.of(pidOf(transport)).orElseThrow();
        CompletableFuture<Void> first = CompletableFuture.runAsync(transport::close);
        // the child ignores stdin's end and SIGTERM, so the first close spends two grace periods in its ladder
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!transport.closing() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(transport.closing()).as("the first close began").isTrue();

        transport.close();

        assertThat(child.isAlive()).as("the second close waited for the first to stop the child").isFalse();
        first.get(10, TimeUnit.SECONDS);
    }

    private void assertStopped(McpServerSpec spec) throws Exception {
        RecordingListener listener = new RecordingListener();
        StdioMcpTransport transport = new StdioMcpTransport(spec, SHORT_GRACE);
        transport.start(listener);
        ProcessHandle child = ProcessHandle.of(pidOf(transport)).orElseThrow();

        transport.close();

        assertThat(child.isAlive()).isFalse();
        assertThat(listener.closedCalls()).isZero();
    }

    private static long pidOf(StdioMcpTransport transport) {
        return transport.pid();
    }
}
