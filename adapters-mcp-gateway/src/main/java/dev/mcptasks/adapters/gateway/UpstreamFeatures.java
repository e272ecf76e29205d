package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * What the exposed servers offer besides tools, from the capabilities each advertised (servers in configuration
 * order; one that could not be reached offers nothing for now): which servers serve resources, prompts, completion
 * and logging, and the front capabilities that follow.
 */
record UpstreamFeatures(Map<String, ObjectNode> byServer) {
    static final String RESOURCES = "resources";
    static final String PROMPTS = "prompts";
    static final String COMPLETIONS = "completions";
    static final String LOGGING = "logging";

    UpstreamFeatures {
        byServer = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byServer));
    }

    /** The servers offering {@code feature}, in configuration order. */
    List<String> servers(String feature) {
        return byServer.entrySet().stream().filter(entry -> offered(entry.getValue().get(feature)))
                .map(Map.Entry::getKey).toList();
    }

    boolean offers(String server, String feature) {
        ObjectNode capabilities = byServer.get(server);
        return capabilities != null && offered(capabilities.get(feature));
    }

    /** Whether {@code server} takes {@code resources/subscribe}. */
    boolean subscribes(String server) {
        ObjectNode capabilities = byServer.get(server);
        return capabilities != null && capabilities.path(RESOURCES).path("subscribe").asBoolean(false);
    }

    /**
     * Adds to the front's {@code capabilities} each feature some server offers: {@code resources}, {@code prompts},
     * {@code completions}, and for a client with a session (2025-11-25) {@code resources.subscribe} when one of them
     * takes subscriptions and {@code logging}. No {@code listChanged}: upstream list changes are not relayed.
     */
    void advertise(ObjectNode capabilities, boolean session) {
        if (!servers(RESOURCES).isEmpty()) {
            ObjectNode resources = capabilities.putObject(RESOURCES);
            if (session && servers(RESOURCES).stream().anyMatch(this::subscribes)) {
                resources.put("subscribe", true);
            }
        }
        for (String feature : session ? List.of(PROMPTS, COMPLETIONS, LOGGING) : List.of(PROMPTS, COMPLETIONS)) {
            if (!servers(feature).isEmpty()) {
                capabilities.putObject(feature);
            }
        }
    }

    private static boolean offered(JsonNode capability) {
        return capability != null && capability.isObject();
    }
}
