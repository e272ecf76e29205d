package dev.mcptasks.mcp;

import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import java.util.concurrent.CompletableFuture;

/**
 * One generation's wire protocol for tasks, behind {@link NativeTasksDriver}: the driver picks the session and the
 * generation (a submit the session's, a created task its own), the protocol speaks it. Every request goes through
 * the operation, so a caller's cancel and send permit reach each step.
 */
interface TaskProtocol {
    CompletableFuture<SubmitResult> submit(RemoteOperation<SubmitResult> operation, McpSession session,
            McpHandshake handshake, SubmitCall call);

    CompletableFuture<RemoteTaskSnapshot> status(RemoteOperation<RemoteTaskSnapshot> operation, McpSession session,
            RemoteTaskRef ref);

    CompletableFuture<RemoteTaskSnapshot> cancel(RemoteOperation<RemoteTaskSnapshot> operation, McpSession session,
            RemoteTaskRef ref);

    CompletableFuture<Void> answer(RemoteOperation<Void> operation, McpSession session, RemoteTaskRef ref,
            String inputResponsesJson);
}
