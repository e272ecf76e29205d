package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.SubmitObserver;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tool run as one plain {@code tools/call} (no {@code task} param), held open until the tool's result and bounded
 * by the server's {@code directCallTimeout}. Its answer is the whole outcome, so the submit completes with a terminal
 * snapshot and no remote task: {@code completed} with the result, {@code failed} for an {@code isError} result or a
 * JSON-RPC error answer, {@code protocol_error} when its answer was over the message cap. A call past the bound (hung
 * or trickled) fails as {@link RemoteFailure#TIMED_OUT}, for the server's {@code submitPolicy} to decide. Any other transport failure is classified as any request's (the runtime keeps
 * the attempt marker, so the server's {@code submitPolicy} decides whether it is called again); cancelling the operation
 * sends {@code notifications/cancelled} for the call. The call carries a {@code _meta.progressToken}; the server's
 * {@code notifications/progress} for it, and the moment the call is sent, go to the operation's
 * {@link SubmitObserver}.
 */
final class DirectToolCall {
    private static final Logger LOG = LoggerFactory.getLogger(DirectToolCall.class);

    private DirectToolCall() {}

    static CompletableFuture<SubmitResult> send(RemoteOperation<SubmitResult> operation, McpSession session,
            McpHandshake handshake, String tool, ObjectNode params) {
        SubmitObserver observer = operation.observer();
        return operation.track(() -> {
            // told right before the request leaves: from here a cancel of the operation cancels the call itself
            observer.directCallSent();
            return session.requestWithProgress("tools/call", params, session.settings().directCallTimeout(),
                    progress -> progress(session, tool, progress, observer));
        }).handle((result, error) -> {
            if (error == null) {
                return answered(session, handshake, tool, result);
            }
            Throwable cause = RemoteOperation.unwrap(error);
            if (cause instanceof McpErrorResponse response) {
                // the server's answer to the call itself: the call ran (or was rejected) and is over
                return terminal(session, handshake, RemoteTaskSnapshot.of(null, TaskStatus.FAILED).withError(
                        ErrorCodes.REMOTE_FAILED, "tool " + tool + " failed with error " + response.code()
                                + ": " + response.remoteMessage()));
            }
            if (cause instanceof McpTimeoutException timeout) {
                // a hang and a trickle alike: the bound covers the whole call, answer included. The call was sent and
                // may have run, so the runtime applies the server's submit policy now, naming this bound (a marker
                // alone would leave the next claim to report an outcome no worker recorded)
                throw new RemoteCallException(RemoteFailure.TIMED_OUT, "the direct call of tool " + tool
                        + " on server '" + session.serverName() + "' did not finish within "
                        + timeout.timeout().toSeconds() + " s (directCallTimeoutSeconds); it was cancelled"
                        + " and may have run", timeout);
            }
            // the answer arrived and is over the cap: the tool ran, its outcome is known, and ends the task here
            McpMessageTooLargeException tooLarge = tooLarge(cause);
            if (tooLarge != null) {
                return terminal(session, handshake, RemoteTaskSnapshot.of(null, TaskStatus.FAILED).withError(
                        ErrorCodes.PROTOCOL_ERROR, "server '" + session.serverName() + "' answered the direct call"
                                + " of tool " + tool + " with " + (tooLarge.sizeIsLowerBound() ? "more than " : "")
                                + tooLarge.size() + " bytes, over the " + tooLarge.cap() + "-byte message cap;"
                                + " the tool ran and its answer was discarded"));
            }
            throw RemoteFailures.classify(error);
        });
    }

    /** One {@code notifications/progress} for the call; a malformed one is logged and dropped, never fatal. */
    private static void progress(McpSession session, String tool, JsonNode params, SubmitObserver observer) {
        JsonNode progress = params.get("progress");
        JsonNode total = params.get("total");
        JsonNode message = params.get("message");
        if (progress == null || !progress.isNumber() || (total != null && !total.isNull() && !total.isNumber())) {
            LOG.warn("server '{}': ignoring malformed progress of tool {} (progress and total must be numbers): {}",
                    session.serverName(), tool, params);
            return;
        }
        observer.progress(new CallProgress(progress.doubleValue(),
                total == null || total.isNull() ? null : total.doubleValue(),
                message != null && message.isTextual() ? message.textValue() : null));
    }

    /**
     * A {@code CallToolResult}. A server that answers a plain call with a task anyway ({@code {task: Task}} and no
     * {@code content}) gets that task polled like any other; anything but an object fails the task as a protocol
     * error (the call did run: sending it again would not be a retry of a failure).
     */
    private static SubmitResult answered(McpSession session, McpHandshake handshake, String tool, JsonNode result) {
        if (result == null || !result.isObject()) {
            return terminal(session, handshake, RemoteTaskSnapshot.of(null, TaskStatus.FAILED).withError(
                    ErrorCodes.PROTOCOL_ERROR, "server '" + session.serverName() + "' answered the direct call of "
                            + tool + " with something other than a CallToolResult object"));
        }
        if (result.path("task").isObject() && !result.has("content")) {
            return new SubmitResult(TaskParser2025.parse(session.serverName(), "tools/call", result.get("task"),
                    null), handshake.protocolVersion(), session.settings().tasksProcessLocal());
        }
        return terminal(session, handshake, TaskParser2026.finished(RemoteTaskSnapshot.of(null,
                TaskStatus.COMPLETED), result, "tool " + tool + " returned an error"));
    }

    /** The oversized answer behind a transport failure of the call, or null. */
    private static McpMessageTooLargeException tooLarge(Throwable cause) {
        for (Throwable at = cause; at != null; at = at.getCause()) {
            if (at instanceof McpMessageTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    private static SubmitResult terminal(McpSession session, McpHandshake handshake, RemoteTaskSnapshot snapshot) {
        // no remote task: nothing lives in the endpoint, so no worker owns it
        return new SubmitResult(snapshot, handshake.protocolVersion(), false);
    }
}
