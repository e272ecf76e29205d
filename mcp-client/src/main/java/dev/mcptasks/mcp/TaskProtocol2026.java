package dev.mcptasks.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The 2026-07-28 tasks extension ({@code io.modelcontextprotocol/tasks}, SEP-2663). The session frames every request
 * with the envelope, which declares the extension; the server then decides per {@code tools/call} whether to answer
 * with a task ({@code resultType: task}), at once ({@code complete}) or with an input round before any task exists
 * ({@code input_required}, answered by calling again with {@code inputResponses} and {@code requestState}).
 * {@code tasks/get} carries the result, error or input requests inline (there is no {@code tasks/result});
 * {@code tasks/cancel} and {@code tasks/update} are acknowledged only. A server that does not offer the extension is
 * still called (it answers with the result: a direct call), unless the tool's {@link CallMode} is {@code task}.
 */
final class TaskProtocol2026 implements TaskProtocol {
    private static final String VERSION = ProtocolGeneration.VERSION_2026;

    @Override
    public CompletableFuture<SubmitResult> submit(RemoteOperation<SubmitResult> operation, McpSession session,
            McpHandshake handshake, SubmitCall call) {
        ObjectNode params;
        CompletableFuture<Void> prepared;
        // the server decides per call whether to answer with a task or with the result, which may take as long as
        // the tool runs: outside callMode task the call is bounded like a direct call
        CallMode mode = session.settings().callMode(call.toolName());
        Duration timeout = mode == CallMode.TASK ? session.settings().requestTimeout()
                : session.settings().directCallTimeout();
        try {
            if (mode == CallMode.TASK && handshake.capabilitiesKnown()
                    && !handshake.capabilities().tasksExtension()) {
                throw RemoteFailures.refused("server '" + session.serverName() + "' speaks " + VERSION
                        + " but does not offer the tasks extension (" + Envelope.TASKS_EXTENSION
                        + " is missing from the capabilities of its server/discover result) and has callMode task");
            }
            params = ToolResults.toolCall(call.toolName(), ToolResults.arguments(call.argumentsJson()));
            if (call.inputRound() != null) {
                params.set("inputResponses", responses(call.inputRound().inputResponsesJson()));
                if (call.inputRound().requestState() != null) {
                    params.put("requestState", call.inputRound().requestState());
                }
            }
            // 2026 tools carry no execution.taskSupport: any tool may answer with a task, so only its existence counts
            prepared = operation.track(() -> session.findTool(call.toolName())).thenAccept(tool -> {
                if (tool.isEmpty()) {
                    throw RemoteFailures.refused("server '" + session.serverName() + "' has no tool '"
                            + call.toolName() + "'");
                }
            });
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(RemoteFailures.beforeSend(e));
        }
        return prepared
                .exceptionallyCompose(error -> CompletableFuture.failedFuture(RemoteFailures.beforeSend(error)))
                .thenCompose(ready -> operation.track(() -> session.request("tools/call", params, timeout))
                        .handle((result, error) -> {
                            if (error != null) {
                                throw refusal(session, call.toolName(), error);
                            }
                            return created(session, call.toolName(), result);
                        }))
                .thenCompose(created -> answerLacksDetail(created)
                        ? withOutcome(operation, session, created) : CompletableFuture.completedFuture(created));
    }

    /**
     * A create answer is a bare Task: a task that finished before it left has no result or error in it, and a task
     * that asks for input at once has no {@code inputRequests} (without them the user has nothing to answer, and an
     * {@code input_required} task is polled only slowly).
     */
    private static boolean answerLacksDetail(SubmitResult created) {
        RemoteTaskSnapshot snapshot = created.snapshot();
        if (!created.createdTask()) {
            return false;
        }
        return switch (snapshot.status()) {
            case COMPLETED, FAILED -> snapshot.resultJson() == null;
            case INPUT_REQUIRED -> snapshot.inputRequiredJson() == null;
            default -> false;
        };
    }

    /**
     * One {@code tasks/get} for what the create answer could not carry (see {@link #answerLacksDetail}). The task
     * exists by now, so nothing may fail the submit any more: a refused permit or a failed read returns the create
     * answer as it came, and the detail is read by the next poll.
     */
    private CompletableFuture<SubmitResult> withOutcome(RemoteOperation<SubmitResult> operation, McpSession session,
            SubmitResult created) {
        String id = created.snapshot().remoteTaskId();
        return operation.track(() -> session.request("tasks/get", NativeTasksDriver.taskParams(id)))
                .handle((task, error) -> {
                    if (error != null) {
                        return created;
                    }
                    try {
                        RemoteTaskSnapshot read = TaskParser2026.parse(session.serverName(), "tasks/get", task,
                                id);
                        // the newer view of the same task (a task never leaves a terminal status)
                        return new SubmitResult(read, created.protocolVersion(), created.processLocal());
                    } catch (RemoteCallException e) {
                        return created;
                    }
                });
    }

    /** Create errors: the 2026-07-28 codes named with what they carry; any other JSON-RPC error refuses the call. */
    private static RemoteCallException refusal(McpSession session, String tool, Throwable error) {
        if (!(RemoteOperation.unwrap(error) instanceof McpErrorResponse response)) {
            return RemoteFailures.classify(error);
        }
        String prefix = "server '" + session.serverName() + "' refused " + tool + " (" + response.code() + "): ";
        JsonNode data = response.data() == null ? Json.object() : response.data();
        return switch (response.code()) {
            case GenerationProbe.MISSING_REQUIRED_CLIENT_CAPABILITY -> RemoteFailures.refused(prefix
                    + "it requires the client capabilities " + data.path("requiredCapabilities")
                    + ", which mcp-tasks did not declare (" + response.remoteMessage() + ")");
            case GenerationProbe.UNSUPPORTED_PROTOCOL_VERSION -> RemoteFailures.refused(prefix
                    + "it supports protocol versions " + data.path("supported") + ", the request was "
                    + (data.hasNonNull("requested") ? data.get("requested").asText() : VERSION) + " ("
                    + response.remoteMessage() + ")");
            case GenerationProbe.HEADER_MISMATCH -> RemoteFailures.protocol(prefix
                    + "the request headers and body disagree " + data.path("mismatch") + " ("
                    + response.remoteMessage() + ")");
            default -> RemoteFailures.refused(prefix + response.remoteMessage());
        };
    }

    private static SubmitResult created(McpSession session, String tool, JsonNode result) {
        boolean processLocal = session.settings().spec().isStdio();
        String where = "server '" + session.serverName() + "' answered tools/call of " + tool;
        if (result == null || !result.isObject()) {
            throw RemoteFailures.protocol(where + " with something other than a result object");
        }
        JsonNode type = result.get("resultType");
        if (type == null || !type.isTextual()) {
            throw RemoteFailures.protocol(where + " without a resultType (a " + VERSION + " server must send one)");
        }
        return switch (type.textValue()) {
            case "task" -> new SubmitResult(TaskParser2026.parse(session.serverName(), "tools/call", result,
                    null), VERSION, processLocal);
            case "complete" -> new SubmitResult(TaskParser2026.finished(
                    RemoteTaskSnapshot.of(null, TaskStatus.COMPLETED), result, "tool " + tool + " returned an error"),
                    VERSION, processLocal);
            case "input_required" -> inputRound(where, result, processLocal);
            default -> throw RemoteFailures.protocol(where + " with the unknown resultType '" + type.textValue()
                    + "'");
        };
    }

    private static SubmitResult inputRound(String where, JsonNode result, boolean processLocal) {
        JsonNode requests = result.get("inputRequests");
        if (requests == null || !requests.isObject()) {
            throw RemoteFailures.protocol(where + " with input_required but no inputRequests object");
        }
        JsonNode state = result.get("requestState");
        if (state != null && !state.isNull() && !state.isTextual()) {
            throw RemoteFailures.protocol(where + " with a requestState that is not a string");
        }
        RemoteTaskSnapshot snapshot = new RemoteTaskSnapshot(null, TaskStatus.INPUT_REQUIRED, null, null, null, null,
                null, Json.write(requests), null);
        return new SubmitResult(snapshot, VERSION, processLocal, state != null && state.isTextual()
                ? state.textValue() : null);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteOperation<RemoteTaskSnapshot> operation,
            McpSession session, RemoteTaskRef ref) {
        String id = ref.remoteTaskId();
        return NativeTasksDriver.taskRequest(operation, session, "tasks/get", NativeTasksDriver.taskParams(id))
                .thenApply(task -> TaskParser2026.parse(session.serverName(), "tasks/get", task, id));
    }

    /**
     * {@code tasks/cancel} only acknowledges: the task may still end completed or failed. One {@code tasks/get}
     * after the ack tells what it is now, whatever that is; the runtime keeps tracking a task that is not terminal.
     */
    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteOperation<RemoteTaskSnapshot> operation,
            McpSession session, RemoteTaskRef ref) {
        String id = ref.remoteTaskId();
        return operation.track(() -> session.request("tasks/cancel", NativeTasksDriver.taskParams(id)))
                .handle((ack, error) -> {
                    if (error == null) {
                        return status(operation, session, ref);
                    }
                    if (RemoteFailures.isError(error, McpErrorResponse.INVALID_PARAMS)) {
                        // unknown, or (on some servers) already terminal: only a status read can tell which
                        String refusal = ((McpErrorResponse) RemoteOperation.unwrap(error)).remoteMessage();
                        return status(operation, session, ref).thenApply(snapshot -> {
                            if (!snapshot.status().isTerminal()) {
                                throw RemoteFailures.protocol("server '" + session.serverName() + "' refused to"
                                        + " cancel " + id + " (" + refusal + ") but reports it "
                                        + snapshot.status().wireName());
                            }
                            return snapshot;
                        });
                    }
                    throw RemoteFailures.classify(error);
                })
                .thenCompose(next -> next);
    }

    @Override
    public CompletableFuture<Void> answer(RemoteOperation<Void> operation, McpSession session, RemoteTaskRef ref,
            String inputResponsesJson) {
        ObjectNode params = NativeTasksDriver.taskParams(ref.remoteTaskId());
        params.set("inputResponses", responses(inputResponsesJson));
        return NativeTasksDriver.taskRequest(operation, session, "tasks/update", params).thenApply(ack -> null);
    }

    /** The answers as a JSON object (key to bare result); anything else is refused before sending. */
    private static ObjectNode responses(String inputResponsesJson) {
        JsonNode parsed;
        try {
            parsed = Json.parse(inputResponsesJson);
        } catch (JsonProcessingException e) {
            throw RemoteFailures.refused("the input responses are not valid JSON: " + e.getOriginalMessage());
        }
        if (parsed == null || !parsed.isObject()) {
            throw RemoteFailures.refused("the input responses must be a JSON object from input-request key to answer");
        }
        return (ObjectNode) parsed;
    }
}
