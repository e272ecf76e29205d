package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection to a url whose transport is being detected. The first message goes over Streamable HTTP; when that
 * POST is answered 400, 404 or 405 (what a legacy server answers a POST to its SSE url), the same message goes over
 * the legacy HTTP+SSE transport, which stays if it takes it; else the first failure stands and Streamable HTTP stays.
 * Messages sent meanwhile wait for that decision. Inbound messages are heard from the transport being tried (the
 * legacy server may write its answer on the stream before it answers the POST 202) and then from the one that stays;
 * a loss is heard only from the one that stays.
 */
final class DetectingTransport implements McpTransport {
    private static final Logger log = LoggerFactory.getLogger(DetectingTransport.class);

    /** A message relayed to the transport carrying it, for {@link #abandon}. */
    private record Carried(McpTransport transport, CompletableFuture<Void> inner) {}

    private final McpServerSpec spec;
    private final McpTransportFactory streamable;
    private final McpTransportFactory legacy;
    private final DetectingTransportFactory outcome;
    private final AtomicBoolean firstSent = new AtomicBoolean();
    /** Completes once the first message decided which transport stays. */
    private final CompletableFuture<Void> decided = new CompletableFuture<>();
    private final Map<CompletableFuture<Void>, Carried> relayed = new ConcurrentHashMap<>();
    private final List<McpTransport> made = new CopyOnWriteArrayList<>();
    /** The transport that carries sends and whose loss ends this one. */
    private volatile McpTransport current;
    /** The transport whose inbound messages reach the listener: the legacy one from the moment it is tried. */
    private volatile McpTransport heard;
    private volatile Listener listener;
    private volatile boolean closed;
    /** Whether the outcome was handed to the process memory. */
    private volatile boolean known;

    DetectingTransport(McpServerSpec spec, McpTransportFactory streamable, McpTransportFactory legacy,
            DetectingTransportFactory outcome) {
        this.spec = spec;
        this.streamable = streamable;
        this.legacy = legacy;
        this.outcome = outcome;
    }

    @Override
    public void start(Listener listener) {
        this.listener = listener;
        McpTransport first = streamable.create(spec);
        made.add(first);
        current = first;
        heard = first;
        first.start(new Forwarding(first));
    }

    @Override
    public CompletableFuture<Void> send(String message) {
        if (firstSent.compareAndSet(false, true)) {
            return sendFirst(message);
        }
        if (decided.isDone()) {
            McpTransport carrier = current;
            CompletableFuture<Void> sent = carrier.send(message);
            if (!known && carrier == made.get(0)) {
                // the first message failed for another reason: the first one Streamable HTTP takes settles it
                sent.thenRun(this::streamableWorks);
            }
            return sent;
        }
        CompletableFuture<Void> outer = new CompletableFuture<>();
        decided.whenComplete((ignored, never) -> relay(current, current.send(message), outer));
        return outer;
    }

    private CompletableFuture<Void> sendFirst(String message) {
        McpTransport first = current;
        CompletableFuture<Void> outer = new CompletableFuture<>();
        CompletableFuture<Void> inner = first.send(message);
        relayed.put(outer, new Carried(first, inner));
        inner.whenComplete((ok, error) -> {
            McpTransportException cause = error == null ? null : transportCause(error);
            if (cause == null) {
                streamableWorks();
            } else if (refusedAsLegacy(cause) && !closed) {
                tryLegacy(message, cause, outer);
                return;
            }
            decide(outer, first, cause);
        });
        return outer;
    }

    /** The first POST was refused the way a legacy server refuses it: the same message, over the legacy transport. */
    private void tryLegacy(String message, McpTransportException refusal, CompletableFuture<Void> outer) {
        McpTransport fallback;
        CompletableFuture<Void> inner;
        try {
            fallback = legacy.create(spec.withTransport(McpServerSpec.SSE));
            made.add(fallback);
            // the Streamable HTTP transport sent nothing else and opened no stream: only the candidate can speak
            heard = fallback;
            fallback.start(new Forwarding(fallback));
            inner = fallback.send(message);
        } catch (RuntimeException e) {
            log.debug("server '{}': the legacy SSE transport could not start: {}", spec.name(), e.toString());
            heard = current;
            decide(outer, current, refusal);
            return;
        }
        relayed.put(outer, new Carried(fallback, inner));
        inner.whenComplete((ok, error) -> {
            if (error != null) {
                log.debug("server '{}': no legacy SSE transport at {} either: {}", spec.name(), spec.url(),
                        transportCause(error).getMessage());
                heard = current;
                closeLater(fallback);
                decide(outer, current, refusal);
                return;
            }
            McpTransport refused = current;
            current = fallback;
            closeLater(refused);
            known = true;
            outcome.legacyWorks(spec, refusal);
            decide(outer, fallback, null);
        });
    }

    private void streamableWorks() {
        known = true;
        outcome.streamableWorks(spec);
    }

    private void decide(CompletableFuture<Void> outer, McpTransport stays, McpTransportException failure) {
        relayed.remove(outer);
        decided.complete(null);
        if (failure == null) {
            outer.complete(null);
        } else {
            outer.completeExceptionally(failure);
        }
        if (stays != current) {
            closeLater(stays);
        }
    }

    private void relay(McpTransport transport, CompletableFuture<Void> inner, CompletableFuture<Void> outer) {
        relayed.put(outer, new Carried(transport, inner));
        inner.whenComplete((ok, error) -> {
            relayed.remove(outer);
            if (error == null) {
                outer.complete(null);
            } else {
                outer.completeExceptionally(transportCause(error));
            }
        });
    }

    @Override
    public void abandon(CompletableFuture<Void> sent) {
        Carried carried = relayed.get(sent);
        if (carried != null) {
            carried.transport().abandon(carried.inner());
        } else {
            current.abandon(sent);
        }
    }

    @Override
    public void protocolVersionNegotiated(String version) {
        current.protocolVersionNegotiated(version);
    }

    @Override
    public Optional<String> sessionId() {
        return current.sessionId();
    }

    @Override
    public void close() {
        close(false);
    }

    @Override
    public void detach() {
        close(true);
    }

    private void close(boolean keepSession) {
        closed = true;
        for (McpTransport transport : made) {
            try {
                if (keepSession) {
                    transport.detach();
                } else {
                    transport.close();
                }
            } catch (RuntimeException e) {
                log.debug("server '{}': closing a transport failed: {}", spec.name(), e.toString());
            }
        }
    }

    /** 400, 404 or 405 on the first POST: a legacy server's answer to a POST at its SSE url. */
    private static boolean refusedAsLegacy(McpTransportException cause) {
        return cause.kind() == McpTransportException.Kind.HTTP_STATUS
                && (cause.httpStatus() == 400 || cause.httpStatus() == 404 || cause.httpStatus() == 405);
    }

    private static McpTransportException transportCause(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof McpTransportException transport ? transport
                : new McpTransportException(McpTransportException.Kind.STREAM_BROKEN, cause.toString(), cause);
    }

    /** Closing may wait (an HTTP client's shutdown): never on the transport thread that completed a send. */
    private void closeLater(McpTransport transport) {
        CompletableFuture.runAsync(() -> {
            try {
                transport.close();
            } catch (RuntimeException e) {
                log.debug("server '{}': closing a transport failed: {}", spec.name(), e.toString());
            }
        });
    }

    /** Passes on what the transport being heard says, and the loss of the one that stays. */
    private final class Forwarding implements Listener {
        private final McpTransport source;

        Forwarding(McpTransport source) {
            this.source = source;
        }

        @Override
        public void onMessage(String message) {
            if (heard == source) {
                listener.onMessage(message);
            }
        }

        @Override
        public void onError(McpTransportException error) {
            if (heard == source) {
                listener.onError(error);
            }
        }

        @Override
        public void onClosed(McpTransportException cause) {
            if (current == source) {
                listener.onClosed(cause);
            }
        }
    }
}
