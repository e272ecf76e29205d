package dev.mcptasks.ports.catalog;

import java.util.concurrent.CompletableFuture;

/**
 * Plain requests to an upstream MCP server, for what the gateway passes through without a task (resources, prompts,
 * completion, log level): one request, one answer, within the server's request timeout, in the session the worker
 * keeps with the server. An adapter also tells of the server's notifications the gateway relays.
 */
public interface UpstreamRequests {

    /** No upstream answers: every request fails as unavailable, no server has capabilities. */
    UpstreamRequests NONE = new UpstreamRequests() {
        @Override
        public CompletableFuture<String> request(String serverName, String method, String paramsJson) {
            return CompletableFuture.failedFuture(new UpstreamUnavailableException("server '" + serverName
                    + "' takes no requests here"));
        }

        @Override
        public CompletableFuture<String> capabilities(String serverName) {
            return CompletableFuture.completedFuture("{}");
        }

        @Override
        public void onNotification(UpstreamNotificationListener listener) {
        }
    };

    /**
     * Sends {@code method} with {@code paramsJson} (a JSON object) to the server.
     *
     * @return completes with the {@code result} object as JSON; exceptionally with an {@link UpstreamErrorException}
     *     when the server answered a JSON-RPC error, or an {@link UpstreamUnavailableException} when it could not be
     *     asked or did not answer in time
     */
    CompletableFuture<String> request(String serverName, String method, String paramsJson);

    /**
     * The capabilities object the server advertised ({@code initialize} or {@code server/discover}), connecting first
     * when needed; {@code "{}"} when unknown. Fails as {@link #request} does when the server cannot be reached.
     */
    CompletableFuture<String> capabilities(String serverName);

    /** Tells {@code listener} of every notification any server sends in the sessions these requests use. */
    void onNotification(UpstreamNotificationListener listener);

    /** A server's notification. */
    @FunctionalInterface
    interface UpstreamNotificationListener {
        /** Runs on a transport or callback thread: must return at once. */
        void notified(String serverName, String method, String paramsJson);
    }
}
