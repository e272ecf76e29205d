package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.ports.repository.RepositoryException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link FrontDispatcher}: classifies each message, picks the generation (a {@code params._meta} protocol
 * version means 2026-07-28; otherwise the 2025-11-25 session), runs the handler on the gateway's executor (store
 * reads and writes never run on a transport's I/O thread) and turns every failure into a JSON-RPC error with a
 * one-line message: never a stack trace to the client.
 */
final class FrontRouter implements FrontDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(FrontRouter.class);

    private final Front2025 front2025;
    private final Front2026 front2026;
    private final StatusNotifier notifier;
    private final TaskWatcher watcher;
    private final Executor executor;
    private final Subscriptions subscriptions;
    private final TaskListens listens;

    FrontRouter(Front2025 front2025, Front2026 front2026, StatusNotifier notifier, TaskWatcher watcher,
            Executor executor, Subscriptions subscriptions, TaskListens listens) {
        this.subscriptions = subscriptions;
        this.listens = listens;
        this.front2025 = front2025;
        this.front2026 = front2026;
        this.notifier = notifier;
        this.watcher = watcher;
        this.executor = executor;
    }

    @Override
    public CompletableFuture<Optional<ObjectNode>> dispatch(FrontRequest request) {
        ObjectNode message = request.message();
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method == null && (message.has("result") || message.has("error"))) {
            // a response to a request of ours: the gateway sends none it waits for
            return CompletableFuture.completedFuture(Optional.empty());
        }
        if (id == null) {
            // a notification (initialized, cancelled, ...): nothing to answer, and a blocked call ends with its
            // transport, which cancels its future
            return CompletableFuture.completedFuture(Optional.empty());
        }
        if (method == null || !method.isTextual()) {
            return answered(id, new FrontError(FrontError.INVALID_REQUEST, "Invalid Request: method must be a"
                    + " string"));
        }
        CompletableFuture<ObjectNode> result;
        try {
            result = CompletableFuture.supplyAsync(() -> route(request, method.textValue()), executor)
                    .thenCompose(future -> future);
        } catch (RuntimeException e) {
            // the executor refused (shutting down)
            result = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Optional<ObjectNode>> response = result.handle((body, error) -> Optional.of(
                error == null ? FrontJson.result(id, body) : FrontJson.error(id, toError(method.textValue(), error))));
        // the transport cancels the response when its client leaves: the request's waits stop with it, also one
        // its handler has not registered yet; the mark is dropped once the handler is done, whichever comes last
        CompletableFuture<ObjectNode> handler = result;
        handler.whenComplete((body, error) -> watcher.finished(request));
        response.whenComplete((ignored, error) -> {
            if (error instanceof CancellationException) {
                watcher.abandon(request);
                if (handler.isDone()) {
                    watcher.finished(request);
                }
            }
        });
        return response;
    }

    @Override
    public void sessionClosed(FrontSession session) {
        notifier.closed(session);
        subscriptions.closed(session);
    }

    @Override
    public void stopping() {
        listens.closeAll();
    }

    private CompletableFuture<ObjectNode> route(FrontRequest request, String method) {
        ObjectNode params = Params.of(request.message());
        if (Envelope2026.present(params)) {
            return front2026.handle(request, method, params, Envelope2026.read(params));
        }
        if (request.session() == null && !"initialize".equals(method)) {
            Envelope2026.read(params); // names what is missing
        }
        return front2025.handle(request, method, params);
    }

    private static FrontError toError(String method, Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof FrontError front) {
            return front;
        }
        if (cause instanceof DomainException domain) {
            return FrontError.invalidParams(FrontCatalog.oneLine(domain));
        }
        if (cause instanceof RepositoryException store) {
            LOG.warn("gateway: {} failed on the task store: {}", method, FrontCatalog.oneLine(store));
            return new FrontError(FrontError.INTERNAL, "the task store is unavailable: "
                    + FrontCatalog.oneLine(store));
        }
        LOG.warn("gateway: {} failed", method, cause);
        return new FrontError(FrontError.INTERNAL, "Internal error: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + FrontCatalog.oneLine(cause)));
    }

    private static CompletableFuture<Optional<ObjectNode>> answered(JsonNode id, FrontError error) {
        return CompletableFuture.completedFuture(Optional.of(FrontJson.error(id == null ? NullNode.instance : id,
                error)));
    }
}
