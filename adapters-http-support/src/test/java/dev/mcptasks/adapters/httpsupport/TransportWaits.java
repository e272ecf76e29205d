package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.mcptasks.ports.transport.McpTransportException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The waits the HTTP transports' tests share (from this module's test-jar): a send's failure, and a condition that
 * another thread (a peer, the event loop) makes true. Bounded generously for a loaded machine; a pass never waits
 * for the bound.
 */
public final class TransportWaits {
    private static final Duration BOUND = Duration.ofSeconds(20);

    private TransportWaits() {}

    /** The transport failure {@code future} (a send) fails with; fails the test if it completes otherwise. */
    public static McpTransportException failure(CompletableFuture<?> future) {
        Throwable thrown = catchThrowable(() -> future.get(BOUND.toMillis(), TimeUnit.MILLISECONDS));
        assertThat(thrown).as("the send failed").isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(McpTransportException.class);
        return (McpTransportException) thrown.getCause();
    }

    /** Returns once {@code condition} holds; fails the test, naming {@code what}, if it does not within the bound. */
    public static void eventually(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(10);
        }
    }
}
