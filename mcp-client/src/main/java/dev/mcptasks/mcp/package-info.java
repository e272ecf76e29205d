/**
 * The MCP client of mcp-tasks: {@link dev.mcptasks.mcp.McpSession} (JSON-RPC over the {@code McpTransport} port,
 * lifecycle, timeouts, re-initialization), {@link dev.mcptasks.mcp.McpSessions} (one session per configured server
 * per worker), and the two {@code TaskDriver}s built on them: {@link dev.mcptasks.mcp.NativeTasksDriver} (MCP
 * 2025-11-25 tasks, name {@code mcp-tasks}) and {@link dev.mcptasks.mcp.OrdinaryToolsDriver} (submit/status/cancel
 * tools, name {@code ordinary-tools}). Every request failure is one of the {@link dev.mcptasks.mcp.McpException}
 * kinds; the drivers classify them into {@code RemoteFailure}s.
 */
package dev.mcptasks.mcp;
