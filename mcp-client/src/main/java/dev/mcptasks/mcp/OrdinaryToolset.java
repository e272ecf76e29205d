package dev.mcptasks.mcp;

import java.util.Objects;

/**
 * The three ordinary tools through which a server exposes its own long-running jobs: one starts a job with the
 * user's arguments, the other two take {@code {"task_id": ...}}.
 */
public record OrdinaryToolset(String submitTool, String statusTool, String cancelTool) {
    public OrdinaryToolset {
        Objects.requireNonNull(submitTool, "submitTool");
        Objects.requireNonNull(statusTool, "statusTool");
        Objects.requireNonNull(cancelTool, "cancelTool");
    }
}
