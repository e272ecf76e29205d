package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.FrontSettings;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.Quotas;
import dev.mcptasks.ports.audit.AuditChannel;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.config.GatewayConfig;
import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.mcp.McpSessions;
import dev.mcptasks.mcp.UpstreamPassthrough;
import dev.mcptasks.mcp.UpstreamToolCatalog;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.catalog.ToolCatalog;
import dev.mcptasks.ports.catalog.UpstreamRequests;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The front door ({@code mcp-tasks gateway}): the protocol layer over the task service and the upstream servers'
 * tools, and the transports' settings, from the {@code gateway} object. With a worker in the same process the MCP
 * sessions are the worker's; alone ({@link #withOwnSessions}) the gateway opens sessions of its own, used only to
 * list tools.
 */
final class GatewayModule extends AbstractModule {
    private static final int STORE_THREADS = 8;
    private static final AtomicInteger STORE_THREAD_COUNT = new AtomicInteger();
    private final boolean ownSessions;

    private GatewayModule(boolean ownSessions) {
        this.ownSessions = ownSessions;
    }

    /** Beside a worker, whose module provides the MCP sessions. */
    static GatewayModule besideWorker() {
        return new GatewayModule(false);
    }

    /** Without a worker: the gateway's own sessions, to list tools. */
    static GatewayModule withOwnSessions() {
        return new GatewayModule(true);
    }

    @Override
    protected void configure() {
        // the task service's actions are the gateway's, under the principal of each request's token
        OptionalBinder.newOptionalBinder(binder(), AuditChannel.class).setBinding().toInstance(AuditChannel.GATEWAY);
        if (ownSessions) {
            MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class);
            install(new OwnSessions());
        }
    }

    @Provides
    @Singleton
    ToolCatalog toolCatalog(McpSessions sessions) {
        return new UpstreamToolCatalog(sessions);
    }

    @Provides
    @Singleton
    UpstreamRequests upstreamRequests(McpSessions sessions) {
        return new UpstreamPassthrough(sessions);
    }

    @Provides
    @Singleton
    FrontDoor frontDoor(TaskService tasks, TaskChanges changes, ToolCatalog catalog, UpstreamRequests upstream,
            Clock clock, AppConfig config, dev.mcptasks.ports.metrics.Metrics metrics) {
        // the handlers' store reads and writes: short, and bounded so that a flood of requests queues here rather
        // than opening more store work than the pool can serve
        ExecutorService storeCalls = Executors.newFixedThreadPool(STORE_THREADS, runnable -> {
            Thread thread = new Thread(runnable, "mcp-tasks-gateway-" + STORE_THREAD_COUNT.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        return FrontDoor.create(tasks, changes, catalog, upstream, clock, storeCalls, frontSettings(config), metrics);
    }

    @Provides
    @Singleton
    GatewaySettings gatewaySettings(AppConfig config) {
        GatewayConfig gateway = config.gateway();
        try {
            return GatewaySettings.defaults()
                    .withBind(gateway.host(), gateway.port())
                    .withBearerTokens(tokensToPrincipals(gateway))
                    .withAllowedOrigins(new LinkedHashSet<>(gateway.allowedOrigins()))
                    .withAllowedHosts(new LinkedHashSet<>(gateway.allowedHosts()))
                    .withMaxRequestBytes(gateway.maxRequestBytes())
                    .withAnonymousPrincipal(gateway.localPrincipal())
                    .withConnections(new GatewaySettings.Connections(
                            Duration.ofSeconds(gateway.limits().requestTimeoutSeconds()),
                            gateway.limits().maxConnections(), gateway.limits().maxSessionsPerPrincipal()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("gateway", "gateway: " + e.getMessage());
        }
    }

    /** Registered only without a worker (the worker's own module provides the sessions otherwise). */
    static final class OwnSessions extends AbstractModule {
        @Provides
        @Singleton
        McpSessions sessions(AppConfig config, Map<String, McpTransportFactory> factories, Clock clock,
                dev.mcptasks.ports.metrics.Metrics metrics) {
            return Workers.sessions(config, factories.values(), clock, metrics);
        }
    }

    static FrontSettings frontSettings(AppConfig config) {
        List<FrontSettings.ExposedServer> servers = new ArrayList<>();
        config.gateway().exposed().forEach((server, exposure) -> {
            try {
                servers.add(new FrontSettings.ExposedServer(server, exposure.everyTool() ? null : exposure.tools()));
            } catch (IllegalArgumentException e) {
                throw new ConfigException("gateway.expose." + server, "gateway.expose." + server + ": "
                        + e.getMessage());
            }
        });
        if (servers.isEmpty()) {
            throw new ConfigException("mcpServers", "the gateway has no server to serve: configure mcpServers"
                    + " (and gateway.expose to choose among them)");
        }
        GatewayConfig.Limits limits = config.gateway().limits();
        Map<String, Quotas.Limit> byPrincipal = new LinkedHashMap<>();
        limits.quotas().forEach((principal, quota) -> byPrincipal.put(principal, limit(quota)));
        FrontSettings settings = FrontSettings.of(servers, Workers.CLIENT_VERSION)
                .withQuotas(new Quotas(limit(limits.quota()), byPrincipal));
        if (config.gateway().handoffSeconds() > 0) {
            settings = settings.withHandoffAfter(Duration.ofSeconds(config.gateway().handoffSeconds()));
        }
        return config.gateway().plainToolNames() ? settings.withPlainToolNames() : settings;
    }

    private static Quotas.Limit limit(GatewayConfig.Quota quota) {
        return new Quotas.Limit(quota.concurrentTasks(), quota.callsPerMinute());
    }

    private static Map<String, String> tokensToPrincipals(GatewayConfig gateway) {
        Map<String, String> byToken = new LinkedHashMap<>();
        gateway.tokensByPrincipal().forEach((principal, token) -> byToken.put(token, principal));
        return byToken;
    }
}
