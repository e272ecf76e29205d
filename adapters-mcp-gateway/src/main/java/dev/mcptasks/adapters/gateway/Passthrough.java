package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What the gateway forwards to the upstream servers as plain requests, without a task: resources (list, templates,
 * read, subscribe), prompts, completion and the log level. One request upstream per front request, within the
 * server's request timeout; an upstream JSON-RPC error is answered as the server sent it. Lists page through the
 * servers offering the feature, one upstream page per front page ({@link ListCursor}); prompt names are namespaced
 * as tool names are; resource URIs are passed unchanged and routed back by {@link UpstreamRouter}. A method no
 * exposed server offers is -32601, as it is not advertised.
 */
final class Passthrough {
    /** The methods passed through in both generations. */
    private static final Set<String> STATELESS = Set.of("resources/list", "resources/templates/list",
            "resources/read", "prompts/list", "prompts/get", "completion/complete");
    /** The methods that need a 2025-11-25 session (the 2026-07-28 generation has no session to hold them). */
    private static final Set<String> SESSION = Set.of("resources/subscribe", "resources/unsubscribe",
            "logging/setLevel");

    static final Duration ADVERTISE_WAIT = Duration.ofSeconds(5);

    private final UpstreamCalls calls;
    private final UpstreamRouter router;
    private final Subscriptions subscriptions;

    Passthrough(UpstreamCalls calls, UpstreamRouter router, Subscriptions subscriptions) {
        this.calls = calls;
        this.router = router;
        this.subscriptions = subscriptions;
    }

    /** Whether {@code method} is passed through for a client of this generation. */
    static boolean handles(String method, boolean session) {
        return STATELESS.contains(method) || (session && SESSION.contains(method));
    }

    /**
     * Adds the capabilities some exposed server offers to the front's {@code initialize}/discover answer; a server
     * that has not told its capabilities within {@link #ADVERTISE_WAIT} does not hold the answer up.
     */
    CompletableFuture<Void> advertise(ObjectNode capabilities, boolean session) {
        return router.features(ADVERTISE_WAIT).thenAccept(features -> features.advertise(capabilities, session));
    }

    CompletableFuture<ObjectNode> handle(FrontRequest request, String method, ObjectNode params) {
        ObjectNode sent = upstreamParams(params);
        return router.features().thenCompose(features -> switch (method) {
            case "resources/list" -> list(method, "resources", sent,
                    offering(features, UpstreamFeatures.RESOURCES, method));
            case "resources/templates/list" -> list(method, "resourceTemplates", sent,
                    offering(features, UpstreamFeatures.RESOURCES, method));
            case "prompts/list" -> list(method, "prompts", sent, offering(features, UpstreamFeatures.PROMPTS, method));
            case "resources/read" -> router.byUri(Params.requiredString(params, "uri"),
                    offering(features, UpstreamFeatures.RESOURCES, method), server -> calls.call(server, method, sent));
            case "prompts/get" -> {
                UpstreamRouter.Named prompt = router.named(Params.requiredString(params, "name"),
                        offering(features, UpstreamFeatures.PROMPTS, method), "prompt");
                yield calls.call(prompt.server(), method, sent.put("name", prompt.name()));
            }
            case "completion/complete" -> complete(sent, features);
            case "logging/setLevel" -> setLevel(sent, offering(features, UpstreamFeatures.LOGGING, method));
            case "resources/subscribe" -> subscriptions.subscribe(request, Params.requiredString(params, "uri"),
                    subscribable(features, method), sent);
            case "resources/unsubscribe" -> subscriptions.unsubscribe(request, Params.requiredString(params, "uri"),
                    sent);
            default -> throw FrontError.methodNotFound(method);
        }).thenApply(Passthrough::asFront);
    }

    /** One front page: the next upstream page of the server the cursor names (the first server's first page). */
    private CompletableFuture<ObjectNode> list(String method, String field, ObjectNode sent, List<String> offering) {
        JsonNode cursorText = sent.remove("cursor");
        ListCursor cursor = cursorText == null || cursorText.isNull() ? new ListCursor(offering.get(0), null)
                : ListCursor.decode(cursorText.asText());
        int at = offering.indexOf(cursor.server());
        if (at < 0) {
            throw FrontError.invalidParams("Invalid cursor");
        }
        if (cursor.upstream() != null) {
            sent.put("cursor", cursor.upstream());
        }
        String server = cursor.server();
        return calls.call(server, method, sent).thenApply(page -> {
            JsonNode items = page.get(field);
            if (items == null || !items.isArray()) {
                throw new FrontError(FrontError.INTERNAL, "upstream server '" + server + "' answered " + method
                        + " without a " + field + " array");
            }
            ObjectNode result = FrontJson.object();
            ArrayNode list = result.putArray(field);
            for (JsonNode item : items) {
                ObjectNode copy = item.isObject() ? ((ObjectNode) item).deepCopy() : null;
                if (copy == null) {
                    continue;
                }
                if ("prompts".equals(field) && copy.path("name").isTextual()) {
                    copy.put("name", router.frontName(server, copy.get("name").textValue()));
                }
                list.add(copy);
            }
            if ("resources".equals(field)) {
                router.routes().listed(server, list);
            } else if ("resourceTemplates".equals(field)) {
                router.routes().templates(server, list, cursor.upstream() == null);
            }
            JsonNode next = page.get("nextCursor");
            if (next != null && next.isTextual()) {
                result.put("nextCursor", new ListCursor(server, next.textValue()).encode());
            } else if (at + 1 < offering.size()) {
                result.put("nextCursor", new ListCursor(offering.get(at + 1), null).encode());
            }
            return result;
        });
    }

    /** A completion of a prompt's argument (by its front name) or of a resource template's. */
    private CompletableFuture<ObjectNode> complete(ObjectNode sent, UpstreamFeatures features) {
        List<String> offering = offering(features, UpstreamFeatures.COMPLETIONS, "completion/complete");
        ObjectNode ref = Params.optionalObject(sent, "ref", "params.ref");
        if (ref == null) {
            throw FrontError.invalidParams("params.ref is missing");
        }
        String type = ref.path("type").asText("");
        if ("ref/prompt".equals(type)) {
            UpstreamRouter.Named prompt = router.named(Params.requiredString(ref, "name"), offering, "prompt");
            ref.put("name", prompt.name());
            return calls.call(prompt.server(), "completion/complete", sent);
        }
        if ("ref/resource".equals(type)) {
            return router.byTemplate(Params.requiredString(ref, "uri"), offering,
                    server -> calls.call(server, "completion/complete", sent));
        }
        throw FrontError.invalidParams("params.ref.type must be \"ref/prompt\" or \"ref/resource\"");
    }

    /** The level is set on every server offering logging (their sessions are shared by all the gateway's calls). */
    private CompletableFuture<ObjectNode> setLevel(ObjectNode sent, List<String> offering) {
        List<CompletableFuture<ObjectNode>> all = new ArrayList<>();
        offering.forEach(server -> all.add(calls.call(server, "logging/setLevel", sent.deepCopy())));
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(done -> FrontJson.object());
    }

    private static List<String> offering(UpstreamFeatures features, String feature, String method) {
        List<String> servers = features.servers(feature);
        if (servers.isEmpty()) {
            throw FrontError.methodNotFound(method);
        }
        return servers;
    }

    private static List<String> subscribable(UpstreamFeatures features, String method) {
        List<String> servers = features.servers(UpstreamFeatures.RESOURCES).stream().filter(features::subscribes)
                .toList();
        if (servers.isEmpty()) {
            throw FrontError.methodNotFound(method);
        }
        return servers;
    }

    /** The params sent upstream: the client's own, without the front's 2026-07-28 envelope. */
    private static ObjectNode upstreamParams(ObjectNode params) {
        ObjectNode sent = params.deepCopy();
        if (sent.get("_meta") instanceof ObjectNode meta) {
            meta.remove(List.of(Envelope2026.PROTOCOL_VERSION, Envelope2026.CLIENT_CAPABILITIES,
                    "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/logLevel"));
            if (meta.isEmpty()) {
                sent.remove("_meta");
            }
        }
        return sent;
    }

    /** An upstream result as the front answers it: the upstream's generation marks removed. */
    private static ObjectNode asFront(ObjectNode result) {
        result.remove(List.of("resultType", "ttlMs", "cacheScope"));
        if (result.get("_meta") instanceof ObjectNode meta) {
            meta.remove(Envelope2026.SERVER_INFO);
            if (meta.isEmpty()) {
                result.remove("_meta");
            }
        }
        return result;
    }
}
