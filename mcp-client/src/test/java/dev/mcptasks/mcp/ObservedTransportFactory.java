package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Wraps real transport factories and records what passes through, so tests can wait for "the request went out" or
 * "the garbage arrived" on a latch instead of sleeping.
 */
final class ObservedTransportFactory implements McpTransportFactory {
    private final McpTransportFactory delegate;
    final LinkedBlockingQueue<String> sent = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();
    final LinkedBlockingQueue<McpTransportException> errors = new LinkedBlockingQueue<>();
    final List<McpTransport> created = new CopyOnWriteArrayList<>();

    ObservedTransportFactory(McpTransportFactory delegate) {
        this.delegate = delegate;
    }

    @Override
    public String kind() {
        return delegate.kind();
    }

    @Override
    public boolean supports(McpServerSpec spec) {
        return delegate.supports(spec);
    }

    @Override
    public McpTransport create(McpServerSpec spec) {
        McpTransport transport = delegate.create(spec);
        created.add(transport);
        return new McpTransport() {
            @Override
            public void start(Listener listener) {
                transport.start(new Listener() {
                    @Override
                    public void onMessage(String message) {
                        received.add(message);
                        listener.onMessage(message);
                    }

                    @Override
                    public void onError(McpTransportException error) {
                        errors.add(error);
                        listener.onError(error);
                    }

                    @Override
                    public void onClosed(McpTransportException cause) {
                        listener.onClosed(cause);
                    }
                });
            }

            @Override
            public CompletableFuture<Void> send(String message) {
                sent.add(message);
                return transport.send(message);
            }

            @Override
            public void abandon(CompletableFuture<Void> sent) {
                transport.abandon(sent);
            }

            @Override
            public void protocolVersionNegotiated(String version) {
                transport.protocolVersionNegotiated(version);
            }

            @Override
            public void close() {
                transport.close();
            }
        };
    }

    /** Waits (bounded) until a sent message matches; messages before it are consumed. */
    String awaitSent(Predicate<String> match) throws InterruptedException {
        return await(sent, match);
    }

    String awaitReceived(Predicate<String> match) throws InterruptedException {
        return await(received, match);
    }

    McpTransportException awaitError() throws InterruptedException {
        McpTransportException error = errors.poll(30, TimeUnit.SECONDS);
        if (error == null) {
            throw new AssertionError("no transport error reported within 30 s");
        }
        return error;
    }

    private static String await(LinkedBlockingQueue<String> queue, Predicate<String> match)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            String next = queue.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (next == null) {
                throw new AssertionError("no matching message within 30 s");
            }
            if (match.test(next)) {
                return next;
            }
        }
    }
}
