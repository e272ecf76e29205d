package dev.mcptasks.app.config;

import dev.mcptasks.adapters.webhook.WebhookSettings;
import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.core.service.ServerDirectory;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The whole, validated configuration of one mcp-tasks process.
 *
 * @param source where it was read from (a file name, or {@code defaults})
 * @param servers the configured MCP servers by name, in file order
 * @param webhook {@code notifications.webhook}: where workers POST attention events, or null to log them
 * @param gateway the {@code gateway} object ({@code mcp-tasks gateway}); its defaults when absent
 * @param admin the {@code admin} object (metrics and probes of {@code serve} and {@code gateway}), or null: none
 * @param retention the {@code retention} object: how long finished tasks and audit records are kept; its defaults
 *     when absent
 */
public record AppConfig(String source, DatabaseConfig database, RuntimeConfig runtime,
        Map<String, ServerConfig> servers, WebhookSettings webhook, GatewayConfig gateway, AdminConfig admin,
        RetentionPolicy retention) {

    public AppConfig {
        servers = Collections.unmodifiableMap(new LinkedHashMap<>(servers));
        if (gateway == null) {
            gateway = GatewayConfig.defaults(servers.keySet());
        }
        if (retention == null) {
            retention = RetentionPolicy.defaults();
        }
    }

    /** A configuration without an admin listener, with the default retention. */
    public AppConfig(String source, DatabaseConfig database, RuntimeConfig runtime,
            Map<String, ServerConfig> servers, WebhookSettings webhook, GatewayConfig gateway) {
        this(source, database, runtime, servers, webhook, gateway, null, null);
    }

    /** The admin listener's configuration, if any. */
    public Optional<AdminConfig> adminConfig() {
        return Optional.ofNullable(admin);
    }

    /** A configuration whose gateway serves every server with its defaults. */
    public AppConfig(String source, DatabaseConfig database, RuntimeConfig runtime,
            Map<String, ServerConfig> servers, WebhookSettings webhook) {
        this(source, database, runtime, servers, webhook, null);
    }

    /** A configuration without a webhook: attention events are logged. */
    public AppConfig(String source, DatabaseConfig database, RuntimeConfig runtime,
            Map<String, ServerConfig> servers) {
        this(source, database, runtime, servers, null);
    }

    /** The configuration used when no file is given nor found: a local SQLite file and no servers. */
    public static AppConfig defaults() {
        return new AppConfig("defaults", DatabaseConfig.defaults(), RuntimeConfig.defaults(), Map.of());
    }

    /** The configured servers as the task service sees them. */
    public ServerDirectory serverDirectory() {
        return ServerDirectory.of(servers.values().stream().map(ServerConfig::toProfile).toList());
    }

    /** The same configuration with {@code server} replacing the server of its name (which must exist). */
    public AppConfig withServer(ServerConfig server) {
        if (!servers.containsKey(server.name())) {
            throw new IllegalArgumentException("no server named " + server.name());
        }
        Map<String, ServerConfig> replaced = new LinkedHashMap<>(servers);
        replaced.put(server.name(), server);
        return new AppConfig(source, database, runtime, replaced, webhook, gateway, admin, retention);
    }

    /** The configured webhook, if any. */
    public Optional<WebhookSettings> webhookSettings() {
        return Optional.ofNullable(webhook);
    }

    public Optional<ServerConfig> server(String name) {
        return Optional.ofNullable(servers.get(name));
    }
}
