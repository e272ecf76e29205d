package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code resources/subscribe} and {@code resources/unsubscribe} of front sessions (2025-11-25), held upstream once per
 * (server, URI) ({@link ResourceSubscriptions}), and the relay of each upstream {@code
 * notifications/resources/updated} to the sessions that follow that resource. An upstream session that is lost and
 * set up again forgets its subscriptions; the gateway does not renew them.
 */
final class Subscriptions {
    static final String UPDATED = "notifications/resources/updated";
    private static final Logger LOG = LoggerFactory.getLogger(Subscriptions.class);

    private final UpstreamCalls calls;
    private final UpstreamRouter router;
    private final ResourceSubscriptions held = new ResourceSubscriptions();

    Subscriptions(UpstreamCalls calls, UpstreamRouter router, UpstreamRequests upstream) {
        this.calls = calls;
        this.router = router;
        upstream.onNotification(this::notified);
    }

    CompletableFuture<ObjectNode> subscribe(FrontRequest request, String uri, List<String> offering,
            ObjectNode sent) {
        FrontSession session = requireSession(request, "resources/subscribe");
        if (held.followed(session, uri).isPresent()) {
            return CompletableFuture.completedFuture(FrontJson.object());
        }
        for (String server : offering) {
            ResourceSubscriptions.Resource resource = new ResourceSubscriptions.Resource(server, uri);
            if (held.held(resource)) {
                held.follow(session, resource);
                return CompletableFuture.completedFuture(FrontJson.object());
            }
        }
        return router.byUri(uri, offering, server -> calls.call(server, "resources/subscribe", sent.deepCopy())
                .thenApply(result -> {
                    held.follow(session, new ResourceSubscriptions.Resource(server, uri));
                    return FrontJson.object();
                }));
    }

    CompletableFuture<ObjectNode> unsubscribe(FrontRequest request, String uri, ObjectNode sent) {
        FrontSession session = requireSession(request, "resources/unsubscribe");
        ResourceSubscriptions.Resource resource = held.followed(session, uri).orElse(null);
        if (resource == null || !held.unfollow(session, resource)) {
            return CompletableFuture.completedFuture(FrontJson.object());
        }
        return calls.call(resource.server(), "resources/unsubscribe", sent).thenApply(result -> FrontJson.object());
    }

    /** The session ended: the upstream subscriptions only it held end too. */
    void closed(FrontSession session) {
        for (ResourceSubscriptions.Resource resource : held.closed(session)) {
            ObjectNode params = FrontJson.object().put("uri", resource.uri());
            calls.call(resource.server(), "resources/unsubscribe", params).whenComplete((result, error) -> {
                if (error != null) {
                    LOG.debug("gateway: ending the subscription to {} of server '{}' failed: {}", resource.uri(),
                            resource.server(), FrontCatalog.oneLine(error));
                }
            });
        }
    }

    private void notified(String server, String method, String paramsJson) {
        if (!UPDATED.equals(method)) {
            return;
        }
        JsonNode params = FrontJson.parseOrNull(paramsJson);
        if (!(params instanceof ObjectNode object) || !params.path("uri").isTextual()) {
            return;
        }
        for (FrontSession session : held.followers(new ResourceSubscriptions.Resource(server,
                params.get("uri").textValue()))) {
            session.notify(FrontJson.notification(UPDATED, object.deepCopy()));
        }
    }

    private static FrontSession requireSession(FrontRequest request, String method) {
        if (request.session() == null) {
            throw new FrontError(FrontError.INVALID_REQUEST, method + " needs a session (initialize first)");
        }
        return request.session();
    }
}
