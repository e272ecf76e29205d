package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SendPermit;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Runs long jobs on servers without MCP tasks, through ordinary tools per server (submit, status, and an optional
 * cancel) whose {@code structuredContent} reports the job; see {@link OrdinaryStatusParser} for the shape.
 */
public final class OrdinaryToolsDriver implements TaskDriver {
    public static final String NAME = "ordinary-tools";
    static final String ALREADY_TERMINAL = "already_terminal";

    private final McpSessions sessions;
    private final Map<String, OrdinaryToolset> toolsets;

    /** @param toolsets the toolset of each server this driver serves, by server name */
    public OrdinaryToolsDriver(McpSessions sessions, Map<String, OrdinaryToolset> toolsets) {
        this.sessions = sessions;
        this.toolsets = Map.copyOf(toolsets);
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
        return RemoteOperation.run(permit, operation -> {
            McpSession session = session(call.serverName(), RemoteFailure.REFUSED);
            String tool = toolset(call.serverName(), RemoteFailure.REFUSED).submitTool();
            JsonNode params = ToolResults.toolCall(tool, ToolResults.arguments(call.argumentsJson()));
            return operation.track(session::connect)
                    .exceptionallyCompose(error -> CompletableFuture.failedFuture(RemoteFailures.beforeSend(error)))
                    .thenCompose(handshake -> operation.track(() -> session.request("tools/call", params))
                            .handle((result, error) -> {
                                if (error != null) {
                                    throw RemoteOperation.unwrap(error) instanceof McpErrorResponse response
                                            ? RemoteFailures.refused("server '" + session.serverName()
                                                    + "' refused " + tool + " (" + response.code() + "): "
                                                    + response.remoteMessage())
                                            : RemoteFailures.classify(error);
                                }
                                if (ToolResults.isError(result)) {
                                    throw RemoteFailures.refused(ToolResults.describe(result,
                                            "tool " + tool + " returned an error"));
                                }
                                return new SubmitResult(
                                        OrdinaryStatusParser.parse(session.serverName(), tool, result, null),
                                        handshake.protocolVersion(), session.settings().tasksProcessLocal());
                            }));
        });
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef ref) {
        return status(ref, SendPermit.ALWAYS);
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef ref, SendPermit permit) {
        return RemoteOperation.run(permit, operation -> askAbout(operation, ref, OrdinaryToolset::statusTool));
    }

    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef ref) {
        return cancel(ref, SendPermit.ALWAYS);
    }

    /**
     * A cancel refused because the job already ended is confirmed with a status read, like a native cancel. A
     * toolset without a cancel tool refuses locally with {@link RemoteFailure#UNSUPPORTED}, sending nothing, like a
     * native server without {@code tasks.cancel}: the runtime then stops cancelling and polls the job to its end.
     */
    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef ref, SendPermit permit) {
        return RemoteOperation.run(permit, operation -> {
            if (toolset(ref.serverName(), RemoteFailure.TRANSIENT).cancel().isEmpty()) {
                throw new RemoteCallException(RemoteFailure.UNSUPPORTED, "server '" + ref.serverName()
                        + "' has no cancel tool configured (toolset.cancel)");
            }
            return askAbout(operation, ref, OrdinaryToolset::cancelTool).exceptionallyCompose(error ->
                    RemoteOperation.unwrap(error) instanceof AlreadyTerminal
                            ? confirmedTerminal(operation, ref) : CompletableFuture.failedFuture(error));
        });
    }

    /** The status read after an "already terminal" refusal: it must report the job ended. */
    private CompletableFuture<RemoteTaskSnapshot> confirmedTerminal(RemoteOperation<RemoteTaskSnapshot> operation,
            RemoteTaskRef ref) {
        return askAbout(operation, ref, OrdinaryToolset::statusTool).thenApply(snapshot -> {
            if (!snapshot.status().isTerminal()) {
                throw RemoteFailures.protocol("server '" + ref.serverName() + "' refused to cancel "
                        + ref.remoteTaskId() + " as already terminal but reports it " + snapshot.status().wireName());
            }
            return snapshot;
        });
    }

    private CompletableFuture<RemoteTaskSnapshot> askAbout(RemoteOperation<RemoteTaskSnapshot> operation,
            RemoteTaskRef ref, Function<OrdinaryToolset, String> which) {
        McpSession session = session(ref.serverName(), RemoteFailure.TRANSIENT);
        String tool = which.apply(toolset(ref.serverName(), RemoteFailure.TRANSIENT));
        JsonNode params = ToolResults.toolCall(tool, Json.object().put("task_id", ref.remoteTaskId()));
        return operation.track(() -> session.request("tools/call", params)).handle((result, error) -> {
            if (error != null) {
                throw RemoteFailures.classify(error);
            }
            if (ToolResults.isError(result)) {
                throw toolError(session.serverName(), tool, result);
            }
            return OrdinaryStatusParser.parse(session.serverName(), tool, result, ref.remoteTaskId());
        });
    }

    /** An {@code isError} answer: lost when the job is unknown, already-terminal for a late cancel, else transient. */
    private static RuntimeException toolError(String serverName, String tool, JsonNode result) {
        String text = ToolResults.describe(result, "tool " + tool + " returned an error");
        String code = result.path("structuredContent").path("error_code").asText("");
        String where = "server '" + serverName + "', tool " + tool + ": ";
        if (OrdinaryStatusParser.NOT_FOUND.equals(code) || saysUnknownTask(text)) {
            return RemoteFailures.lost(where + text, null);
        }
        if (ALREADY_TERMINAL.equals(code)) {
            return new AlreadyTerminal(where + text);
        }
        return new RemoteCallException(RemoteFailure.TRANSIENT, where + "returned an error: " + text);
    }

    /** A tool error that says the job is unknown means the server lost it, not that it is busy. */
    private static boolean saysUnknownTask(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        return lower.contains("unknown task") || lower.contains("unknown job") || lower.contains("task not found")
                || lower.contains("job not found");
    }

    /** The cancel tool's "already terminal" refusal, resolved by a status read before the caller sees it. */
    private static final class AlreadyTerminal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AlreadyTerminal(String message) {
            super(message, null, false, false);
        }
    }

    private McpSession session(String serverName, RemoteFailure unknownServer) {
        return sessions.session(serverName).orElseThrow(() -> new RemoteCallException(unknownServer,
                "no MCP server named '" + serverName + "' is configured"));
    }

    private OrdinaryToolset toolset(String serverName, RemoteFailure missing) {
        OrdinaryToolset toolset = toolsets.get(serverName);
        if (toolset == null) {
            throw new RemoteCallException(missing, "no ordinary toolset is configured for server '" + serverName
                    + "'");
        }
        return toolset;
    }
}
