package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The 2025-11-25 tasks utility: task-augmented {@code tools/call}, {@code tasks/get} (plus one {@code tasks/result}
 * once terminal), {@code tasks/cancel}. Task submits are gated on the negotiated version, the server's
 * {@code tasks.requests.tools.call} and the tool's {@code execution.taskSupport}; a tool the {@link CallMode} does not
 * run as a task is called directly ({@link DirectToolCall}). Input requests are answered only on
 * the {@code tasks/result} stream, which mcp-tasks does not drive.
 */
final class TaskProtocol2025 implements TaskProtocol {

    @Override
    public CompletableFuture<SubmitResult> submit(RemoteOperation<SubmitResult> operation, McpSession session,
            McpHandshake handshake, SubmitCall call) {
        if (call.inputRound() != null) {
            throw RemoteFailures.refused("server '" + session.serverName() + "' speaks the 2025-11-25 generation,"
                    + " which has no input rounds on tools/call");
        }
        ObjectNode params = ToolResults.toolCall(call.toolName(), ToolResults.arguments(call.argumentsJson()));
        CallMode mode = session.settings().callMode(call.toolName());
        CompletableFuture<Boolean> asTask;
        try {
            if (mode == CallMode.TASK) {
                // checked before the tool list is read: a server without tasks is refused with nothing sent
                requireTaskSupport(session, handshake);
            }
            asTask = operation.track(() -> session.findTool(call.toolName()))
                    .thenApply(tool -> asTask(session, handshake, mode, call.toolName(), tool));
        } catch (RuntimeException e) {
            asTask = CompletableFuture.failedFuture(e);
        }
        return asTask
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(RemoteFailures.beforeSend(error)))
                .thenCompose(task -> task ? createTask(operation, session, handshake, call, params)
                        : DirectToolCall.send(operation, session, handshake, call.toolName(), params));
    }

    /**
     * Whether the tool is called as a task (else directly), by its call mode and {@code execution.taskSupport}; a
     * call that cannot be made in the mode is refused. Auto: {@code required} is a task (refused when the server has
     * no task tool calls), {@code optional} a task when the server has them, anything else (absent, forbidden, an
     * unknown value) a direct call, since a task may be sent only for optional and required tools.
     */
    private static boolean asTask(McpSession session, McpHandshake handshake, CallMode mode, String name,
            Optional<McpTool> tool) {
        if (tool.isEmpty()) {
            throw RemoteFailures.refused("server '" + session.serverName() + "' has no tool '" + name + "'");
        }
        String support = tool.get().taskSupport();
        return switch (mode) {
            case DIRECT -> false;
            case TASK -> {
                if (!tool.get().taskCapable()) {
                    throw RemoteFailures.refused("tool " + name + " is not task-capable (execution.taskSupport is "
                            + support + ") and server '" + session.serverName() + "' has callMode task");
                }
                yield true;
            }
            case AUTO -> {
                if (McpTool.REQUIRED.equals(support)) {
                    requireTaskSupport(session, handshake);
                    yield true;
                }
                yield McpTool.OPTIONAL.equals(support) && handshake.supportsTaskToolCalls();
            }
        };
    }

    private CompletableFuture<SubmitResult> createTask(RemoteOperation<SubmitResult> operation, McpSession session,
            McpHandshake handshake, SubmitCall call, ObjectNode params) {
        ObjectNode task = params.putObject("task");
        if (call.ttlMs() != null) {
            task.put("ttl", call.ttlMs());
        }
        // the server session the request went out in: servers that bind tasks to it answer for the task only there
        AtomicReference<String> sentIn = new AtomicReference<>();
        return operation.track(() -> session.request("tools/call", params, sentIn::set)).handle((result, error) -> {
            if (error != null) {
                throw RemoteOperation.unwrap(error) instanceof McpErrorResponse response
                        ? RemoteFailures.refused("server '" + session.serverName() + "' refused " + call.toolName()
                                + " (" + response.code() + "): " + response.remoteMessage())
                        : RemoteFailures.classify(error);
            }
            SubmitResult created = created(session, handshake, call.toolName(), result);
            if (sentIn.get() != null) {
                session.tasksCreated();
            }
            return created.inSession(sentIn.get());
        });
    }

    private static void requireTaskSupport(McpSession session, McpHandshake handshake) {
        if (!ProtocolVersions.atLeast(handshake.protocolVersion(), ProtocolVersions.TASKS)) {
            throw RemoteFailures.refused("server '" + session.serverName() + "' negotiated protocol "
                    + handshake.protocolVersion() + "; tasks need " + ProtocolVersions.TASKS + " or newer");
        }
        if (!handshake.capabilities().taskToolCalls()) {
            throw RemoteFailures.refused("server '" + session.serverName()
                    + "' does not advertise tasks.requests.tools.call");
        }
    }

    private static SubmitResult created(McpSession session, McpHandshake handshake, String tool, JsonNode result) {
        JsonNode task = result.get("task");
        if (task == null) {
            if (ToolResults.isError(result)) {
                throw RemoteFailures.refused(ToolResults.describe(result, "tool " + tool + " returned an error"));
            }
            throw RemoteFailures.protocol("server '" + session.serverName() + "' answered the task-augmented call of "
                    + tool + " with a plain result instead of a task");
        }
        RemoteTaskSnapshot snapshot = TaskParser2025.parse(session.serverName(), "tools/call", task, null);
        return new SubmitResult(snapshot, handshake.protocolVersion(), session.settings().tasksProcessLocal());
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteOperation<RemoteTaskSnapshot> operation,
            McpSession session, RemoteTaskRef ref) {
        String id = ref.remoteTaskId();
        return NativeTasksDriver.taskRequest(operation, session, "tasks/get", NativeTasksDriver.taskParams(id))
                .thenApply(task -> TaskParser2025.parse(session.serverName(), "tasks/get", task, id))
                .thenCompose(snapshot -> snapshot.status() == TaskStatus.COMPLETED
                        || snapshot.status() == TaskStatus.FAILED
                        ? withResult(operation, session, snapshot) : CompletableFuture.completedFuture(snapshot));
    }

    /** One {@code tasks/result} for a terminal task (it answers at once then), stored as the CallToolResult JSON. */
    private CompletableFuture<RemoteTaskSnapshot> withResult(RemoteOperation<RemoteTaskSnapshot> operation,
            McpSession session, RemoteTaskSnapshot snapshot) {
        String id = snapshot.remoteTaskId();
        return operation.track(() -> session.request("tasks/result", NativeTasksDriver.taskParams(id)))
                .handle((result, error) -> {
                    if (error == null) {
                        RemoteTaskSnapshot withResult = snapshot.withResult(Json.write(result));
                        if (snapshot.status() == TaskStatus.FAILED && ToolResults.isError(result)) {
                            String text = ToolResults.text(result);
                            if (!text.isEmpty()) {
                                withResult = withResult.withError(ErrorCodes.REMOTE_FAILED, text);
                            }
                        }
                        return withResult;
                    }
                    if (RemoteFailures.isError(error, McpErrorResponse.INVALID_PARAMS)) {
                        throw NativeTasksDriver.lostOrClassified(error, session, "tasks/result", id);
                    }
                    // a failed task's result may be the original JSON-RPC error of the tool call: that is its failure
                    if (snapshot.status() == TaskStatus.FAILED
                            && RemoteOperation.unwrap(error) instanceof McpErrorResponse response) {
                        return snapshot.withError(ErrorCodes.REMOTE_FAILED, "error " + response.code() + ": "
                                + response.remoteMessage());
                    }
                    throw RemoteFailures.classify(error);
                });
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteOperation<RemoteTaskSnapshot> operation,
            McpSession session, RemoteTaskRef ref) {
        String id = ref.remoteTaskId();
        return operation.track(session::connect).thenCompose(handshake -> {
            if (!handshake.capabilities().tasksCancel()) {
                // refused locally, nothing sent: the runtime stops cancelling and keeps polling
                throw new RemoteCallException(RemoteFailure.UNSUPPORTED, "server '" + session.serverName()
                        + "' does not advertise tasks.cancel");
            }
            return operation.track(() -> session.request("tasks/cancel", NativeTasksDriver.taskParams(id)));
        }).handle((task, error) -> {
            if (error == null) {
                RemoteTaskSnapshot snapshot = TaskParser2025.parse(session.serverName(), "tasks/cancel", task,
                        id);
                // finished before the cancel arrived: read it again so the result comes with it
                return snapshot.status() == TaskStatus.COMPLETED || snapshot.status() == TaskStatus.FAILED
                        ? status(operation, session, ref) : CompletableFuture.completedFuture(snapshot);
            }
            if (RemoteFailures.isError(error, McpErrorResponse.INVALID_PARAMS)) {
                // unknown, or already terminal: only a status read can tell which
                String refusal = ((McpErrorResponse) RemoteOperation.unwrap(error)).remoteMessage();
                return status(operation, session, ref).thenApply(snapshot -> {
                    if (!snapshot.status().isTerminal()) {
                        throw RemoteFailures.protocol("server '" + session.serverName() + "' refused to cancel "
                                + id + " (" + refusal + ") but reports it " + snapshot.status().wireName());
                    }
                    return snapshot;
                });
            }
            throw RemoteFailures.classify(error);
        }).thenCompose(next -> next);
    }

    @Override
    public CompletableFuture<Void> answer(RemoteOperation<Void> operation, McpSession session, RemoteTaskRef ref,
            String inputResponsesJson) {
        return CompletableFuture.failedFuture(unanswerable(ref));
    }

    static RemoteCallException unanswerable(RemoteTaskRef ref) {
        return new RemoteCallException(RemoteFailure.UNSUPPORTED, "task " + ref.remoteTaskId() + " of server '"
                + ref.serverName() + "' was created under the 2025-11-25 generation, which takes answers to input"
                + " requests only on the tasks/result stream; mcp-tasks does not drive that stream");
    }
}
