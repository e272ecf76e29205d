package dev.mcptasks.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.UnknownServerException;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A front {@code tools/call} made durable: the front name resolved through the catalog, then a pending row for the
 * principal persisted before anything is answered (a worker sends the call upstream), unless the principal is past
 * its {@link Quotas}. Both generations submit here.
 */
final class ToolCalls {
    private final TaskService tasks;
    private final FrontCatalog catalog;
    private final Executor executor;
    private final QuotaGate quotas;

    ToolCalls(TaskService tasks, FrontCatalog catalog, Executor executor, QuotaGate quotas) {
        this.quotas = quotas;
        this.tasks = tasks;
        this.catalog = catalog;
        this.executor = executor;
    }

    /**
     * @param ttlMs the retention to ask of the upstream, or null for the server's configured default
     * @return the persisted row
     */
    CompletableFuture<TaskRecord> submit(String principal, ObjectNode params, Long ttlMs) {
        String name = Params.requiredString(params, "name");
        ObjectNode arguments = Params.optionalObject(params, "arguments", "params.arguments");
        String argumentsJson = arguments == null ? "{}" : FrontJson.write(arguments);
        // the catalog may complete on an upstream's I/O thread: the store write goes to the gateway's executor
        return catalog.resolve(name).thenApplyAsync(tool -> {
            // a call past its principal's quota is answered now, and nothing is stored
            quotas.admit(principal);
            try {
                return tasks.submitFor(principal, tool.server(), tool.tool(), argumentsJson, ttlMs);
            } catch (UnknownServerException e) {
                throw new FrontError(FrontError.INTERNAL, "tool " + name + " cannot run: " + e.getMessage());
            } catch (DomainException e) {
                throw FrontError.invalidParams("tool " + name + ": " + e.getMessage());
            }
        }, executor);
    }
}
