package dev.mcptasks.mcp;

import java.util.Objects;
import java.util.Optional;

/**
 * The ordinary tools through which a server exposes its own long-running jobs: one starts a job with the user's
 * arguments, the others take {@code {"task_id": ...}}. {@code cancelTool} is null for a server whose jobs cannot be
 * cancelled: a cancel is then refused locally as unsupported, and nothing is sent.
 */
public record OrdinaryToolset(String submitTool, String statusTool, String cancelTool) {
    public OrdinaryToolset {
        Objects.requireNonNull(submitTool, "submitTool");
        Objects.requireNonNull(statusTool, "statusTool");
    }

    /** The cancel tool, if the server has one. */
    public Optional<String> cancel() {
        return Optional.ofNullable(cancelTool);
    }
}
