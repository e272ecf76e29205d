package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.catalog.UpstreamErrorException;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One pass-through request to an upstream server, in JSON: the result object, or the server's JSON-RPC error with
 * its own code, message and data; a server that cannot be asked is a -32603 naming it.
 */
final class UpstreamCalls {
    private final UpstreamRequests upstream;

    UpstreamCalls(UpstreamRequests upstream) {
        this.upstream = upstream;
    }

    CompletableFuture<ObjectNode> call(String server, String method, ObjectNode params) {
        CompletableFuture<String> answer;
        try {
            answer = upstream.request(server, method, FrontJson.write(params));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((json, error) -> {
            if (error != null) {
                throw asFrontError(server, method, error);
            }
            JsonNode result = FrontJson.parseOrNull(json);
            if (result == null || !result.isObject()) {
                throw new FrontError(FrontError.INTERNAL, "upstream server '" + server + "' answered " + method
                        + " with a result that is not an object");
            }
            return (ObjectNode) result;
        });
    }

    /** The capabilities the server advertised; fails as {@link #call} does when it cannot be reached. */
    CompletableFuture<ObjectNode> capabilities(String server) {
        CompletableFuture<String> answer;
        try {
            answer = upstream.capabilities(server);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((json, error) -> {
            if (error != null) {
                throw asFrontError(server, "initialize", error);
            }
            JsonNode capabilities = FrontJson.parseOrNull(json);
            return capabilities instanceof ObjectNode object ? object : FrontJson.object();
        });
    }

    static FrontError asFrontError(String server, String method, Throwable error) {
        Throwable cause = error;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof FrontError front) {
            return front;
        }
        if (cause instanceof UpstreamErrorException rpc) {
            // the server's own error, unchanged: its code, its message, its data
            return new FrontError(rpc.code(), rpc.remoteMessage(), rpc.dataJson() == null ? null
                    : FrontJson.parseOrNull(rpc.dataJson()));
        }
        return new FrontError(FrontError.INTERNAL, "upstream server '" + server + "' cannot answer " + method + ": "
                + FrontCatalog.oneLine(cause));
    }
}
