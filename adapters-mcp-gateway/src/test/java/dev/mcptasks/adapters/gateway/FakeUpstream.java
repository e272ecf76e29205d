package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.catalog.UpstreamErrorException;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import dev.mcptasks.ports.catalog.UpstreamUnavailableException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Upstream servers for pass-through requests, scripted by the test: each server's capabilities (none by default),
 * an answer or a JSON-RPC error per (server, method), and the requests they were sent, in order. A request no script
 * answers fails as unavailable.
 */
final class FakeUpstream implements UpstreamRequests {
    /** One request a server was sent. */
    record Sent(String server, String method, ObjectNode params) {}

    private final Map<String, String> capabilities = new ConcurrentHashMap<>();
    private final Map<String, Function<ObjectNode, CompletableFuture<String>>> answers = new ConcurrentHashMap<>();
    private final List<UpstreamNotificationListener> listeners = new CopyOnWriteArrayList<>();
    final List<Sent> sent = new CopyOnWriteArrayList<>();

    /** {@code server} advertises {@code capabilitiesJson} (single quotes for double). */
    FakeUpstream offers(String server, String capabilitiesJson) {
        capabilities.put(server, capabilitiesJson.replace('\'', '"'));
        return this;
    }

    /** {@code server} answers {@code method} with {@code answer(params)} (JSON, single quotes for double). */
    FakeUpstream answers(String server, String method, Function<ObjectNode, String> answer) {
        answers.put(server + " " + method, params -> CompletableFuture.completedFuture(
                answer.apply(params).replace('\'', '"')));
        return this;
    }

    FakeUpstream answers(String server, String method, String result) {
        return answers(server, method, params -> result);
    }

    /** {@code server} answers {@code method} with a JSON-RPC error. */
    FakeUpstream fails(String server, String method, int code, String message, String dataJson) {
        answers.put(server + " " + method, params -> CompletableFuture.failedFuture(new UpstreamErrorException(
                server, code, message, dataJson == null ? null : dataJson.replace('\'', '"'))));
        return this;
    }

    /** {@code server} sends a notification. */
    void notifies(String server, String method, String paramsJson) {
        listeners.forEach(listener -> listener.notified(server, method, paramsJson.replace('\'', '"')));
    }

    List<Sent> sentTo(String server, String method) {
        return sent.stream().filter(s -> s.server().equals(server) && s.method().equals(method)).toList();
    }

    @Override
    public CompletableFuture<String> request(String serverName, String method, String paramsJson) {
        sent.add(new Sent(serverName, method, FrontHarness.json(paramsJson)));
        Function<ObjectNode, CompletableFuture<String>> answer = answers.get(serverName + " " + method);
        if (answer == null) {
            return CompletableFuture.failedFuture(new UpstreamUnavailableException("server '" + serverName
                    + "': connection refused"));
        }
        return answer.apply(FrontHarness.json(paramsJson));
    }

    @Override
    public CompletableFuture<String> capabilities(String serverName) {
        return CompletableFuture.completedFuture(capabilities.getOrDefault(serverName, "{}"));
    }

    @Override
    public void onNotification(UpstreamNotificationListener listener) {
        listeners.add(listener);
    }
}
