package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.adapters.stdio.StdioTransportFactory;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.testkit.ManualClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A server that cannot be reached at all (a command that does not start or dies before the handshake, a port where
 * nothing listens) was sent nothing: a create fails {@link RemoteFailure#NOT_SENT}, so it may be sent again safely.
 */
class StartFailuresTest {
    private static final SubmitCall CREATE = new SubmitCall(TaskId.of("t1"), "peer", "work", "{}", null);

    private static RemoteCallException submitTo(McpServerSpec spec) {
        try (McpSessions sessions = new McpSessions(List.of(new McpServerSettings(spec, Duration.ofSeconds(20),
                true)), List.of(new StdioTransportFactory(), new HttpTransportFactory()), new ManualClock(), "test")) {
            return remoteFailure(new NativeTasksDriver(sessions).submit(CREATE));
        }
    }

    @Test
    void aCommandThatDoesNotExistSentNothing() {
        RemoteCallException failure = submitTo(McpServerSpec.stdio("peer", "/nonexistent/mcp-server", List.of(),
                Map.of()));
        assertThat(failure.failure()).as(failure.getMessage()).isEqualTo(RemoteFailure.NOT_SENT);
    }

    @Test
    void aProcessThatExitsBeforeTheHandshakeSentNothing() {
        RemoteCallException failure = submitTo(McpServerSpec.stdio("peer", "sh", List.of("-c", "exit 3"), Map.of()));
        assertThat(failure.failure()).as(failure.getMessage()).isEqualTo(RemoteFailure.NOT_SENT);
    }

    @Test
    void aPortWhereNothingListensSentNothing() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        RemoteCallException failure = submitTo(McpServerSpec.http("peer",
                URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of()));
        assertThat(failure.failure()).as(failure.getMessage()).isEqualTo(RemoteFailure.NOT_SENT);
    }
}
