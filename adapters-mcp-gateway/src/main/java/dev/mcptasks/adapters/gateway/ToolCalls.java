package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.UnknownServerException;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.trace.TraceContext;
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
    CompletableFuture<TaskRecord> submit(FrontRequest request, ObjectNode params, Long ttlMs) {
        String principal = request.principal();
        TraceContext trace = trace(request, params);
        String name = Params.requiredString(params, "name");
        ObjectNode arguments = Params.optionalObject(params, "arguments", "params.arguments");
        String argumentsJson = arguments == null ? "{}" : FrontJson.write(arguments);
        // the catalog may complete on an upstream's I/O thread: the store write goes to the gateway's executor
        return catalog.resolve(name).thenApplyAsync(tool -> {
            // a call past its principal's quota is answered now, and nothing is stored
            quotas.admit(principal);
            try {
                return tasks.submitFor(principal, tool.server(), tool.tool(), argumentsJson, ttlMs, trace);
            } catch (UnknownServerException e) {
                throw new FrontError(FrontError.INTERNAL, "tool " + name + " cannot run: " + e.getMessage());
            } catch (DomainException e) {
                throw FrontError.invalidParams("tool " + name + ": " + e.getMessage());
            }
        }, executor);
    }

    /**
     * The trace the call continues: the MCP-level context in {@code params._meta.traceparent} (with its
     * {@code tracestate}) when the client put one there, else the HTTP request's W3C headers; a malformed one is
     * ignored (the task then starts a trace of its own when tracing is on).
     */
    static TraceContext trace(FrontRequest request, ObjectNode params) {
        JsonNode meta = params.path("_meta");
        JsonNode parent = meta.path("traceparent");
        if (parent.isTextual()) {
            JsonNode state = meta.path("tracestate");
            TraceContext fromMeta = TraceContext.parse(parent.textValue(), state.isTextual() ? state.textValue() : null);
            if (fromMeta != null) {
                return fromMeta;
            }
        }
        return request.trace();
    }
}
