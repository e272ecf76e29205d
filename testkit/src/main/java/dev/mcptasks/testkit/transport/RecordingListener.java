package dev.mcptasks.testkit.transport;

import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A transport listener that records everything it is told, for tests to await with bounded waits. */
public final class RecordingListener implements McpTransport.Listener {
    /** How long the await helpers wait before failing the test. */
    public static final Duration AWAIT = Duration.ofSeconds(15);

    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private final BlockingQueue<McpTransportException> errors = new LinkedBlockingQueue<>();
    private final CompletableFuture<McpTransportException> closed = new CompletableFuture<>();
    private final AtomicInteger closedCalls = new AtomicInteger();

    @Override
    public void onMessage(String message) {
        messages.add(message);
    }

    @Override
    public void onError(McpTransportException error) {
        errors.add(error);
    }

    @Override
    public void onClosed(McpTransportException cause) {
        closedCalls.incrementAndGet();
        closed.complete(cause);
    }

    /** The next inbound message; fails after {@link #AWAIT}. */
    public String nextMessage() {
        return poll(messages, "message");
    }

    /** The next reported error; fails after {@link #AWAIT}. */
    public McpTransportException nextError() {
        return poll(errors, "error");
    }

    /** Messages received and not yet taken. */
    public BlockingQueue<String> messages() {
        return messages;
    }

    /** Errors reported and not yet taken. */
    public BlockingQueue<McpTransportException> errors() {
        return errors;
    }

    /** Completes with the cause given to {@code onClosed}. */
    public CompletableFuture<McpTransportException> closed() {
        return closed;
    }

    /** How often {@code onClosed} was called. */
    public int closedCalls() {
        return closedCalls.get();
    }

    private static <T> T poll(BlockingQueue<T> queue, String what) {
        try {
            T item = queue.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (item == null) {
                throw new AssertionError("no " + what + " within " + AWAIT);
            }
            return item;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a " + what, e);
        }
    }
}
