package dev.mcptasks.adapters.httpsupport;

import dev.mcptasks.ports.transport.McpTransportException;
import io.netty.util.ReferenceCounted;
import java.util.concurrent.CompletableFuture;

/**
 * The rule every HTTP transport's call keeps before each request it sends (the first, a resend after a challenge, a
 * resumption): a call that has ended sends nothing more, and the request it built is released, not leaked.
 */
public final class UnsentRequests {
    private UnsentRequests() {}

    /**
     * Whether {@code request} must not go out because its call ended: {@code done} completed, or the call was
     * {@code aborted} (then {@code done} fails with that cause). Called under the call's lock, so that an abort either
     * sees the request that goes out or stops it here.
     */
    public static boolean dropIfEnded(CompletableFuture<?> done, McpTransportException aborted,
            ReferenceCounted request) {
        if (aborted == null && !done.isDone()) {
            return false;
        }
        request.release();
        if (aborted != null) {
            done.completeExceptionally(aborted);
        }
        return true;
    }
}
