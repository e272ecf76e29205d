package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.transport.McpTransportException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Runs tool calls as native MCP tasks, in either generation: the 2025-11-25 tasks utility
 * ({@link TaskProtocol2025}) or the 2026-07-28 tasks extension ({@link TaskProtocol2026}). A submit speaks the
 * generation of the server's session (its pin, else what the session discovered); a created task is always driven
 * under the generation it was created with ({@link RemoteTaskRef#generation()}, from its stored protocol version),
 * through a session of that generation, whatever the server's session speaks today.
 */
public final class NativeTasksDriver implements TaskDriver {
    public static final String NAME = "mcp-tasks";

    private final McpSessions sessions;
    private final TaskProtocol protocol2025 = new TaskProtocol2025();
    private final TaskProtocol protocol2026 = new TaskProtocol2026();

    public NativeTasksDriver(McpSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        return submit(call, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit) {
        return submit(call, permit, SubmitObserver.NONE);
    }

    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call, SendPermit permit, SubmitObserver observer) {
        return RemoteOperation.run(permit, observer, operation -> {
            McpSession session = session(call.serverName(), RemoteFailure.REFUSED);
            return operation.track(session::connect)
                    .exceptionallyCompose(error -> CompletableFuture.failedFuture(RemoteFailures.beforeSend(error)))
                    .thenCompose(handshake -> protocol(handshake.generation()).submit(operation, session, handshake,
                            call));
        });
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef ref) {
        return status(ref, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef ref, SendPermit permit) {
        return RemoteOperation.run(permit, operation -> inTaskSession(operation, ref,
                session -> protocol(ref.generation()).status(operation, session, ref)));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef ref) {
        return cancel(ref, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef ref, SendPermit permit) {
        return RemoteOperation.run(permit, operation -> inTaskSession(operation, ref,
                session -> protocol(ref.generation()).cancel(operation, session, ref)));
    }

    @Override
    public CompletableFuture<Void> answer(RemoteTaskRef ref, String inputResponsesJson, SendPermit permit) {
        if (!ref.generation().answersInputRequests()) {
            // refused before anything is sent, not even a probe
            return CompletableFuture.failedFuture(TaskProtocol2025.unanswerable(ref));
        }
        return RemoteOperation.run(permit, operation -> inTaskSession(operation, ref,
                session -> protocol(ref.generation()).answer(operation, session, ref, inputResponsesJson)));
    }

    private TaskProtocol protocol(ProtocolGeneration generation) {
        return generation == ProtocolGeneration.TASKS_EXTENSION_2026_07_28 ? protocol2026 : protocol2025;
    }

    /**
     * Runs {@code call} in the session the task lives in: the server session it was created in, when that is not the
     * one this worker speaks in now ({@link McpSessions#resumedFor}), else the session of its generation. When the
     * server no longer knows the creating session, the call goes once more through this worker's own session, which
     * still finds the task on servers that do not bind tasks to sessions (and on others gets "not found": lost).
     * Going again is safe: the server took nothing in a session it does not know.
     */
    private <T> CompletableFuture<T> inTaskSession(RemoteOperation<T> operation, RemoteTaskRef ref,
            Function<McpSession, CompletableFuture<T>> call) {
        return speaking(operation, ref).thenCompose(own -> {
            if (!sessions.mayResume(own, ref)) {
                return call.apply(own);
            }
            // the session taken over borrows the server's capabilities from this worker's own handshake
            CompletableFuture<?> known = own.handshake().isPresent() ? CompletableFuture.completedFuture(null)
                    : operation.track(own::connect).exceptionallyCompose(error -> CompletableFuture.failedFuture(
                            RemoteFailures.classify(error)));
            return known.thenCompose(connected -> {
                Optional<McpSession> resumed = sessions.resumedFor(own, ref);
                if (resumed.isEmpty()) {
                    return call.apply(own);
                }
                return attempt(call, resumed.get()).exceptionallyCompose(error -> {
                    if (!sessionGone(error)) {
                        return CompletableFuture.failedFuture(error);
                    }
                    sessions.gone(resumed.get(), ref.endpointSession());
                    return call.apply(own);
                });
            });
        });
    }

    private static <T> CompletableFuture<T> attempt(Function<McpSession, CompletableFuture<T>> call,
            McpSession session) {
        try {
            return call.apply(session);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Whether the failure says the server does not know the session the request was sent in. */
    private static boolean sessionGone(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof McpTransportFailure failure
                    && failure.transportCause().kind() == McpTransportException.Kind.SESSION_LOST) {
                return true;
            }
        }
        return false;
    }

    /**
     * The session that speaks the task's generation. Choosing it sends nothing once the server's session knows its
     * generation; before that it connects that session (a probe), as one step of the operation.
     */
    private <T> CompletableFuture<McpSession> speaking(RemoteOperation<T> operation, RemoteTaskRef ref) {
        McpSession session = session(ref.serverName(), RemoteFailure.TRANSIENT);
        CompletableFuture<McpSession> chosen = session.generation().isPresent()
                ? sessions.speaking(session, ref.generation())
                : operation.track(() -> sessions.speaking(session, ref.generation()));
        return chosen.exceptionallyCompose(error -> CompletableFuture.failedFuture(RemoteFailures.classify(error)));
    }

    private McpSession session(String serverName, RemoteFailure unknownServer) {
        return sessions.session(serverName).orElseThrow(() -> new RemoteCallException(unknownServer,
                "no MCP server named '" + serverName + "' is configured"));
    }

    static ObjectNode taskParams(String remoteTaskId) {
        return Json.object().put("taskId", remoteTaskId);
    }

    /**
     * One request about a known task ({@code tasks/get}, {@code tasks/update}): a -32602 answer means the server does
     * not know the task (or no longer), which is a lost task, in either generation.
     */
    static CompletableFuture<JsonNode> taskRequest(RemoteOperation<?> operation, McpSession session, String method,
            ObjectNode params) {
        String id = params.path("taskId").asText();
        return operation.track(() -> session.request(method, params)).handle((answer, error) -> {
            if (error != null) {
                throw lostOrClassified(error, session, method, id);
            }
            return answer;
        });
    }

    static RemoteCallException lostOrClassified(Throwable error, McpSession session, String method, String id) {
        if (RemoteFailures.isError(error, McpErrorResponse.INVALID_PARAMS)) {
            return RemoteFailures.lost("server '" + session.serverName() + "' does not know task " + id + " ("
                    + method + ": " + ((McpErrorResponse) RemoteOperation.unwrap(error)).remoteMessage() + ")",
                    RemoteOperation.unwrap(error));
        }
        return RemoteFailures.classify(error);
    }
}
