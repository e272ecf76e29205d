package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.trace.TraceContext;
import java.util.Map;
import java.util.Objects;

/**
 * The durable intent to call a tool: persisted as a {@code pending} row before anything is sent.
 *
 * @param id the new task's id
 * @param serverName the configured MCP server
 * @param toolName the tool to call
 * @param argumentsJson the tool arguments: a strict JSON object
 * @param driver the driver name ({@code mcp-tasks} or {@code ordinary-tools})
 * @param requestedTtlMs the task ttl to request from the server, or null for the server's default
 * @param principal who submitted it through the gateway (only that principal may see or cancel it there), or null
 *     for a task submitted through the CLI or the Java API
 * @param trace the trace the task continues (its submit span's context), or null when tracing is off and the caller
 *     sent none; whichever worker drives the task continues it from the row
 * @param claim the submit claim the create takes for a worker of this process ({@link CreateClaim}), or null for a
 *     row that any worker's claim scan finds
 */
public record NewTask(TaskId id, String serverName, String toolName, String argumentsJson, String driver,
        Long requestedTtlMs, String principal, TraceContext trace, CreateClaim claim) {

    public static final int MAX_NAME_LENGTH = 256;

    public NewTask {
        Objects.requireNonNull(id, "id");
        requireName("server name", serverName);
        requireName("tool name", toolName);
        requireName("driver", driver);
        StrictJson.requireValid("arguments", argumentsJson);
        if (!(StrictJson.parse(argumentsJson) instanceof Map)) {
            throw new DomainException("arguments must be a JSON object, was: " + abbreviate(argumentsJson));
        }
        if (requestedTtlMs != null && requestedTtlMs <= 0) {
            throw new DomainException("ttl must be a positive number of milliseconds, was " + requestedTtlMs);
        }
        if (principal != null) {
            requireName("principal", principal);
        }
    }

    /** A task that any worker's claim scan finds. */
    public NewTask(TaskId id, String serverName, String toolName, String argumentsJson, String driver,
            Long requestedTtlMs, String principal, TraceContext trace) {
        this(id, serverName, toolName, argumentsJson, driver, requestedTtlMs, principal, trace, null);
    }

    /** This task, created already claimed for submit by {@code claim} (see {@link CreateClaim}). */
    public NewTask claimedBy(CreateClaim claim) {
        return new NewTask(id, serverName, toolName, argumentsJson, driver, requestedTtlMs, principal, trace,
                Objects.requireNonNull(claim, "claim"));
    }

    /** A task of no trace. */
    public NewTask(TaskId id, String serverName, String toolName, String argumentsJson, String driver,
            Long requestedTtlMs, String principal) {
        this(id, serverName, toolName, argumentsJson, driver, requestedTtlMs, principal, null);
    }

    /** A task of no principal: submitted through the CLI or the Java API. */
    public NewTask(TaskId id, String serverName, String toolName, String argumentsJson, String driver,
            Long requestedTtlMs) {
        this(id, serverName, toolName, argumentsJson, driver, requestedTtlMs, null, null);
    }

    private static void requireName(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new DomainException(what + " must not be empty");
        }
        if (value.length() > MAX_NAME_LENGTH) {
            throw new DomainException(what + " is longer than " + MAX_NAME_LENGTH + " characters");
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
