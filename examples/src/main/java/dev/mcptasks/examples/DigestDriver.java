package dev.mcptasks.examples;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.RemoteTaskSnapshot;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import dev.mcptasks.ports.driver.TaskDriver;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * A custom {@link TaskDriver} that runs no remote call at all: it hashes text locally, without a shell. Tools
 * {@code sha256} and {@code sha512} take {@code {"text": "..."}} and answer an MCP tool result (the hex digest as text
 * content and as {@code structuredContent}). The call finishes at submit: the driver answers a terminal snapshot
 * without a remote task id, which the runtime stores as the task's result, so it never polls or cancels these tasks.
 * A bad call (unknown tool, missing text) is refused, which ends the task {@code failed} with the reason.
 * Hashing is pure, so a server of this driver may use {@code atLeastOnce}: a repeated submit does no harm.
 */
public final class DigestDriver implements TaskDriver {
    /** The driver name a server profile names to be served by this driver. */
    public static final String NAME = "digest";

    private static final Map<String, String> ALGORITHMS = Map.of("sha256", "SHA-256", "sha512", "SHA-512");

    @Override
    public String name() {
        return NAME;
    }

    /** Cheap enough to compute on the calling thread (one of the runtime's call threads). */
    @Override
    public CompletableFuture<SubmitResult> submit(SubmitCall call) {
        String algorithm = ALGORITHMS.get(call.toolName());
        if (algorithm == null) {
            return refused("unknown tool '" + call.toolName() + "'; the digest driver offers "
                    + new TreeSet<>(ALGORITHMS.keySet()));
        }
        Object text;
        try {
            text = StrictJson.parse(call.argumentsJson()) instanceof Map<?, ?> arguments ? arguments.get("text") : null;
        } catch (DomainException e) {
            return refused("tool '" + call.toolName() + "': arguments are not JSON: " + e.getMessage());
        }
        if (!(text instanceof String value)) {
            return refused("tool '" + call.toolName() + "' needs a string argument 'text'");
        }
        String hex = HexFormat.of().formatHex(digest(algorithm).digest(value.getBytes(StandardCharsets.UTF_8)));
        String result = StrictJson.write(StrictJson.object(
                "content", List.of(StrictJson.object("type", "text", "text", hex)),
                "structuredContent", StrictJson.object("algorithm", algorithm, "hex", hex)));
        // no protocol spoken, so no protocol version; not process-local: there is no remote task to live anywhere
        return CompletableFuture.completedFuture(new SubmitResult(
                RemoteTaskSnapshot.of(null, TaskStatus.COMPLETED).withResult(result), null, false));
    }

    /** Never called: a digest task is terminal from its submit on, so nothing is left to read. */
    @Override
    public CompletableFuture<RemoteTaskSnapshot> status(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.TASK_LOST,
                "the digest driver keeps no tasks: task " + task.taskId() + " has nothing to read"));
    }

    /** Never called, as {@link #status}: there is nothing running to stop. */
    @Override
    public CompletableFuture<RemoteTaskSnapshot> cancel(RemoteTaskRef task) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.UNSUPPORTED,
                "the digest driver keeps no tasks: task " + task.taskId() + " has nothing to cancel"));
    }

    private static CompletableFuture<SubmitResult> refused(String reason) {
        return CompletableFuture.failedFuture(new RemoteCallException(RemoteFailure.REFUSED, reason));
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is required of every Java platform", e);
        }
    }
}
