package dev.mcptasks.adapters.gateway;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the front door serves and how it paces itself.
 *
 * @param servers the upstream servers whose tools are exposed, in the order their tools are listed; each tool is
 *     served as {@code <server>__<tool>} ({@link ToolNames})
 * @param storePollInterval how often a blocked call (a plain {@code tools/call}, a 2025 {@code tasks/result}) and a
 *     session's status notifications read the store while they wait for a task to move
 * @param catalogTtl how long one upstream {@code tools/list} is reused before it is asked again
 * @param serverName the name in {@code serverInfo}
 * @param serverVersion the version in {@code serverInfo}
 * @param clientPollIntervalMs the polling hint given to clients ({@code pollInterval} / {@code pollIntervalMs})
 * @param quotas what each principal may hold
 * @param plainToolNames serve the one exposed server's tools under their own names, without the
 *     {@code <server>__} prefix (only with exactly one server)
 * @param handoffAfter how long a plain call is held before it is answered with a hand-off to a task ({@link
 *     Handoff}); null: held until it ends
 */
public record FrontSettings(List<ExposedServer> servers, Duration storePollInterval, Duration catalogTtl,
        String serverName, String serverVersion, long clientPollIntervalMs, Quotas quotas, boolean plainToolNames,
        Duration handoffAfter) {

    public FrontSettings {
        servers = List.copyOf(Objects.requireNonNull(servers, "servers"));
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("the gateway exposes no server: name at least one");
        }
        Set<String> names = new HashSet<>();
        for (ExposedServer server : servers) {
            if (!names.add(server.name())) {
                throw new IllegalArgumentException("server '" + server.name() + "' is exposed twice");
            }
        }
        requirePositive("storePollInterval", storePollInterval);
        requirePositive("catalogTtl", catalogTtl);
        requireText("serverName", serverName);
        requireText("serverVersion", serverVersion);
        Objects.requireNonNull(quotas, "quotas");
        if (handoffAfter != null) {
            requirePositive("handoffAfter", handoffAfter);
            if (names.contains("mcp-tasks")) {
                throw new IllegalArgumentException("server name 'mcp-tasks' is taken by the hand-off tools"
                        + " (mcp-tasks__task_status, ...): rename the server");
            }
        }
        if (plainToolNames && servers.size() != 1) {
            throw new IllegalArgumentException("plain tool names need exactly one exposed server (names of two"
                    + " servers could collide), not " + servers.size());
        }
        if (clientPollIntervalMs <= 0) {
            throw new IllegalArgumentException("clientPollIntervalMs must be positive, was " + clientPollIntervalMs);
        }
    }

    /** The given servers with the defaults: store polled every second, catalog kept 30 s, clients told 1000 ms. */
    public static FrontSettings of(List<ExposedServer> servers, String serverVersion) {
        return new FrontSettings(servers, Duration.ofSeconds(1), Duration.ofSeconds(30), "mcp-tasks", serverVersion,
                1000, Quotas.NONE, false, null);
    }

    /** These settings with {@code value} as the principals' quotas. */
    public FrontSettings withQuotas(Quotas value) {
        return new FrontSettings(servers, storePollInterval, catalogTtl, serverName, serverVersion,
                clientPollIntervalMs, value, plainToolNames, handoffAfter);
    }

    /** These settings serving the one exposed server's tools under their own names. */
    public FrontSettings withPlainToolNames() {
        return new FrontSettings(servers, storePollInterval, catalogTtl, serverName, serverVersion,
                clientPollIntervalMs, quotas, true, handoffAfter);
    }

    /** These settings handing plain calls still running after {@code after} off to tasks. */
    public FrontSettings withHandoffAfter(Duration after) {
        return new FrontSettings(servers, storePollInterval, catalogTtl, serverName, serverVersion,
                clientPollIntervalMs, quotas, plainToolNames, after);
    }

    /**
     * One exposed upstream server.
     *
     * @param name the configured server name: letters, digits, {@code _ . -}, starting with a letter or digit, with
     *     no {@code __} inside and no {@code _} at the end, so a front tool name splits back into server and tool
     *     unambiguously at its first {@code __}
     * @param tools the upstream tool names to expose, or null for every tool the server lists
     */
    public record ExposedServer(String name, Set<String> tools) {
        public ExposedServer {
            ToolNames.requireServerName(name);
            tools = tools == null ? null : Set.copyOf(tools);
        }

        /** Every tool of the server. */
        public static ExposedServer allTools(String name) {
            return new ExposedServer(name, null);
        }

        boolean exposes(String tool) {
            return tools == null || tools.contains(tool);
        }
    }

    private static void requirePositive(String what, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(what + " must be a positive duration, was " + value);
        }
    }

    private static void requireText(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
    }
}
