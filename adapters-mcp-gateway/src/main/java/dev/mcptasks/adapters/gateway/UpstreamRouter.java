package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the upstream server a pass-through request goes to: what the exposed servers offer now, the server of a
 * front prompt name ({@code <server>__<prompt>}, or the prompt's own name when the one exposed server is served
 * unprefixed), and the server of a resource URI ({@link ResourceRoutes}; a URI no listing named is asked of each
 * server offering resources in turn, and the first answer that is not an error wins).
 */
final class UpstreamRouter {
    private static final Logger LOG = LoggerFactory.getLogger(UpstreamRouter.class);

    private final UpstreamCalls calls;
    private final List<String> servers;
    private final boolean unprefixed;
    private final ResourceRoutes routes;
    /** The servers last found unreachable: logged once until they answer again. */
    private final Set<String> unreachable = ConcurrentHashMap.newKeySet();

    UpstreamRouter(UpstreamCalls calls, FrontSettings settings) {
        this.calls = calls;
        this.servers = settings.servers().stream().map(FrontSettings.ExposedServer::name).toList();
        this.unprefixed = settings.plainToolNames();
        this.routes = new ResourceRoutes(servers);
    }

    ResourceRoutes routes() {
        return routes;
    }

    /** What each exposed server offers now; one that cannot be reached offers nothing (logged). */
    CompletableFuture<UpstreamFeatures> features() {
        return features(null);
    }

    /**
     * {@link #features()}, where a server that has not answered within {@code bound} (null: no bound but the
     * server's request timeout) offers nothing for this answer.
     */
    CompletableFuture<UpstreamFeatures> features(Duration bound) {
        Map<String, CompletableFuture<ObjectNode>> asked = new LinkedHashMap<>();
        for (String server : servers) {
            CompletableFuture<ObjectNode> capabilities = calls.capabilities(server);
            if (bound != null) {
                capabilities = capabilities.completeOnTimeout(FrontJson.object(), bound.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            asked.put(server, capabilities.handle((offered, error) -> {
                if (error == null) {
                    unreachable.remove(server);
                    return offered;
                }
                if (unreachable.add(server)) {
                    LOG.warn("gateway: upstream server '{}' offers no resources, prompts, completion or logging"
                            + " until it can be reached: {}", server,
                            FrontCatalog.oneLine(UpstreamCalls.asFrontError(server, "initialize", error)));
                }
                return FrontJson.object();
            }));
        }
        return CompletableFuture.allOf(asked.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<String, ObjectNode> byServer = new LinkedHashMap<>();
            asked.forEach((server, capabilities) -> byServer.put(server, capabilities.join()));
            return new UpstreamFeatures(byServer);
        });
    }

    /** The front name of {@code server}'s prompt (or tool) {@code name}. */
    String frontName(String server, String name) {
        return unprefixed ? name : ToolNames.front(server, name);
    }

    /** The server and upstream name of a front prompt name among {@code offering}; unknown: -32602. */
    Named named(String frontName, List<String> offering, String what) {
        if (unprefixed && offering.size() == 1) {
            return new Named(offering.get(0), frontName);
        }
        String server = ToolNames.serverOf(frontName).orElse(null);
        if (server == null || !offering.contains(server)) {
            throw FrontError.invalidParams("Unknown " + what + ": " + frontName);
        }
        return new Named(server, frontName.substring(server.length() + ToolNames.SEPARATOR.length()));
    }

    /** A front name decoded. */
    record Named(String server, String name) {}

    /**
     * Sends {@code send} to the server of {@code uri} among {@code offering}: the only one, the one a listing
     * named, else each in turn until one answers without an error (the first error is answered when none does).
     */
    CompletableFuture<ObjectNode> byUri(String uri, List<String> offering,
            Function<String, CompletableFuture<ObjectNode>> send) {
        if (offering.size() == 1) {
            return send.apply(offering.get(0));
        }
        String routed = routes.route(uri).filter(offering::contains).orElse(null);
        if (routed != null) {
            return send.apply(routed);
        }
        return inTurn(offering, 0, send, null);
    }

    /** As {@link #byUri} for a completion of a resource template's argument. */
    CompletableFuture<ObjectNode> byTemplate(String uriTemplate, List<String> offering,
            Function<String, CompletableFuture<ObjectNode>> send) {
        String routed = offering.size() == 1 ? offering.get(0)
                : routes.routeTemplate(uriTemplate).filter(offering::contains).orElse(null);
        return routed != null ? send.apply(routed) : inTurn(offering, 0, send, null);
    }

    private CompletableFuture<ObjectNode> inTurn(List<String> offering, int at,
            Function<String, CompletableFuture<ObjectNode>> send, Throwable first) {
        return send.apply(offering.get(at)).exceptionallyCompose(error -> {
            Throwable kept = first == null ? error : first;
            return at + 1 < offering.size() ? inTurn(offering, at + 1, send, kept)
                    : CompletableFuture.failedFuture(kept);
        });
    }
}
