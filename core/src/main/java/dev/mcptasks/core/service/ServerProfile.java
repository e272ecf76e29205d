package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.SubmitPolicy;
import java.util.Objects;

/**
 * What the runtime needs to know of one configured MCP server.
 *
 * @param name the configured server name
 * @param driver the driver name ({@code mcp-tasks} or {@code ordinary-tools})
 * @param defaultTtlMs the task ttl to request when the caller gives none, or null for the server's default
 * @param submitPolicy what to do with a create request that may have been sent by a worker that died
 */
public record ServerProfile(String name, String driver, Long defaultTtlMs, SubmitPolicy submitPolicy) {
    public ServerProfile {
        if (name == null || name.isBlank()) {
            throw new DomainException("server name must not be empty");
        }
        if (driver == null || driver.isBlank()) {
            throw new DomainException("server '" + name + "' needs a driver");
        }
        if (defaultTtlMs != null && defaultTtlMs <= 0) {
            throw new DomainException("server '" + name + "': ttl must be positive, was " + defaultTtlMs);
        }
        submitPolicy = Objects.requireNonNullElse(submitPolicy, SubmitPolicy.AT_MOST_ONCE);
    }
}
