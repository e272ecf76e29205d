package dev.mcptasks.ports.trace;

/**
 * The attribute keys of mcp-tasks' spans. A task id is an attribute of spans (one task, one trace), never a metric
 * label.
 */
public final class TraceAttributes {
    /** The task's id. */
    public static final String TASK_ID = "mcp_tasks.task.id";
    /** The configured upstream server's name. */
    public static final String SERVER = "mcp_tasks.server";
    /** The tool called. */
    public static final String TOOL = "mcp_tasks.tool";
    /** The claim's phase (submit, poll, cancel). */
    public static final String PHASE = "mcp_tasks.phase";
    /** The worker that holds the claim. */
    public static final String WORKER = "mcp_tasks.worker";
    /** True when the claim took over the expired lease of another claim. */
    public static final String TAKEOVER = "mcp_tasks.takeover";
    /** The MCP method of an upstream request (OpenTelemetry's MCP semantic conventions). */
    public static final String MCP_METHOD = "mcp.method.name";
    /** The fenced write a write span made. */
    public static final String WRITE = "mcp_tasks.write";

    private TraceAttributes() {}
}
