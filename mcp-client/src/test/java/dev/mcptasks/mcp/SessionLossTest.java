package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.NativeTasksDriverTest.remoteFailure;
import static dev.mcptasks.mcp.TaskPeerScript.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.http.HttpTransportFactory;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.transport.RawHttpPeer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session lost while a create is in flight: the create may have reached the server, so it must come back as
 * possibly sent ({@link RemoteFailure#TRANSIENT}: at most once then never sends it again), never as
 * {@link RemoteFailure#NOT_SENT}. Only the request whose own POST the server refused, or one never written, is not
 * sent.
 */
class SessionLossTest {
    private static final SubmitCall CREATE = new SubmitCall(TaskId.of("t1"), "peer", "work", "{}", null);
    private final TaskPeerScript script = new TaskPeerScript();
    private RawHttpPeer peer;
    private McpSessions sessions;

    private NativeTasksDriver driver() throws Exception {
        peer = new RawHttpPeer(script);
        McpServerSpec spec = McpServerSpec.http("peer", peer.uri(), Map.of());
        sessions = new McpSessions(List.of(new McpServerSettings(spec, Duration.ofSeconds(60), true)),
                List.of(new HttpTransportFactory()), new ManualClock(), "test");
        return new NativeTasksDriver(sessions);
    }

    @AfterEach
    void close() {
        if (sessions != null) {
            sessions.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    @Test
    void aCreateInFlightWhenAnotherPostMeetsA404MayHaveBeenSent() throws Exception {
        NativeTasksDriver driver = driver();
        script.toolsCall = request -> RawHttpPeer.hold();
        script.tasksGet = TaskPeerScript::sessionGone;
        CompletableFuture<SubmitResult> create = driver.submit(CREATE);
        eventually(() -> peer.heldRequests() == 1, "the create is held by the server");

        RemoteCallException status = remoteFailure(driver.status(new RemoteTaskRef(TaskId.of("t2"), "peer", "work",
                "r2")));
        RemoteCallException created = remoteFailure(create);

        assertThat(status.failure()).as("the 404 answered the status request itself").isEqualTo(
                RemoteFailure.NOT_SENT);
        assertThat(created.failure()).as("the create was written before the session was lost").isEqualTo(
                RemoteFailure.TRANSIENT);
        assertThat(created).hasMessageContaining("may have received it");
        eventually(() -> peer.heldRequests() == 0, "the create's connection is closed");
    }

    @Test
    void aCreateInFlightWhenTheListeningStreamMeetsA404MayHaveBeenSent() throws Exception {
        NativeTasksDriver driver = driver();
        AtomicBoolean createHeld = new AtomicBoolean();
        script.toolsCall = request -> {
            createHeld.set(true);
            return RawHttpPeer.hold();
        };
        // the GET stream ends at once and asks to be reopened soon, until the create is held: then 404
        script.listening = request -> createHeld.get() ? TaskPeerScript.sessionGone(request)
                : new RawHttpPeer.Reply.Respond(200, "text/event-stream", "retry: 20\n\n", Map.of());

        RemoteCallException created = remoteFailure(driver.submit(CREATE));

        assertThat(created.failure()).isEqualTo(RemoteFailure.TRANSIENT);
        assertThat(created.getCause()).isInstanceOf(McpTransportFailure.class);
        assertThat(((McpTransportFailure) created.getCause()).transportCause().kind())
                .isEqualTo(McpTransportException.Kind.SESSION_LOST);
    }
}
