package dev.mcptasks.app.config;

import dev.mcptasks.core.service.ServerProfile;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.mcp.McpServerSettings;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One entry of {@code mcpServers}: exactly one of {@code command} (stdio) and {@code url} (HTTP), with
 * resolved {@code env} and {@code headers} values. {@link #toString()} prints names of env variables and headers, never
 * their values.
 *
 * @param name the key under {@code mcpServers}
 * @param toolset the tool names for the {@code ordinary-tools} driver, null for {@code mcp-tasks}
 * @param taskTtlMs the task ttl to request, or null for the server's default
 * @param sessionBound whether the endpoint keeps its tasks per process or session: always true for stdio; for HTTP
 *     the {@code sessionBound} key, default false (the runtime also detects session binding at run time)
 * @param maxConnections HTTP: most connections carrying requests at once, besides the listening GET stream; further
 *     requests wait for one within their {@code toolCallTimeoutSeconds}. Stdio (one pipe) has none: 0 there
 * @param pinnedGeneration the {@code protocol} key: the tasks generation new tasks of this server are created with,
 *     or null for {@code auto} (the default: discovered from the server). A task is always driven under the
 *     generation it was created with, whatever this says later
 * @param transport the {@code transport} key (or {@code type}): {@code stdio} for a command; {@code http} (Streamable
 *     HTTP) or {@code sse} (the legacy 2024-11-05 HTTP+SSE transport) for a url, or null for {@code auto} (the
 *     default for a url: Streamable HTTP first, the legacy transport when the first POST is answered 400, 404 or 405)
 * @param calls how tools are called: as tasks or directly ({@code callMode}, {@code callModes},
 *     {@code directCallTimeoutSeconds})
 * @param auth the {@code auth} object: how OAuth tokens for this HTTP server are obtained, or null (none)
 */
public record ServerConfig(String name, String command, List<String> args, Map<String, String> env, Path cwd,
        URI url, Map<String, String> headers, String driver, Toolset toolset, int toolCallTimeoutSeconds,
        SubmitPolicy submitPolicy, Long taskTtlMs, boolean sessionBound, int maxConnections,
        ProtocolGeneration pinnedGeneration, String transport, CallSettings calls, AuthConfig auth) {

    public static final String NATIVE_DRIVER = "mcp-tasks";
    /** The {@code protocol} value that pins nothing (discover the generation). */
    public static final String AUTO_PROTOCOL = "auto";
    public static final String ORDINARY_TOOLS_DRIVER = "ordinary-tools";

    /** The {@code transport} value that configures nothing (detect it). */
    public static final String AUTO_TRANSPORT = "auto";

    public ServerConfig {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        headers = Map.copyOf(headers);
        calls = calls == null ? CallSettings.defaults() : calls;
        if (auth != null && command != null) {
            throw new IllegalArgumentException("auth applies to HTTP servers only, " + name + " has a command");
        }
    }

    /** A server without OAuth. */
    public ServerConfig(String name, String command, List<String> args, Map<String, String> env, Path cwd, URI url,
            Map<String, String> headers, String driver, Toolset toolset, int toolCallTimeoutSeconds,
            SubmitPolicy submitPolicy, Long taskTtlMs, boolean sessionBound, int maxConnections,
            ProtocolGeneration pinnedGeneration, String transport, CallSettings calls) {
        this(name, command, args, env, cwd, url, headers, driver, toolset, toolCallTimeoutSeconds, submitPolicy,
                taskTtlMs, sessionBound, maxConnections, pinnedGeneration, transport, calls, null);
    }

    /** A server whose transport follows from command or url (stdio, or detected), tools called by the defaults. */
    public ServerConfig(String name, String command, List<String> args, Map<String, String> env, Path cwd, URI url,
            Map<String, String> headers, String driver, Toolset toolset, int toolCallTimeoutSeconds,
            SubmitPolicy submitPolicy, Long taskTtlMs, boolean sessionBound, int maxConnections,
            ProtocolGeneration pinnedGeneration) {
        this(name, command, args, env, cwd, url, headers, driver, toolset, toolCallTimeoutSeconds, submitPolicy,
                taskTtlMs, sessionBound, maxConnections, pinnedGeneration, null, CallSettings.defaults());
    }

    /** A server with a configured transport whose tools are called by the defaults. */
    public ServerConfig(String name, String command, List<String> args, Map<String, String> env, Path cwd, URI url,
            Map<String, String> headers, String driver, Toolset toolset, int toolCallTimeoutSeconds,
            SubmitPolicy submitPolicy, Long taskTtlMs, boolean sessionBound, int maxConnections,
            ProtocolGeneration pinnedGeneration, String transport) {
        this(name, command, args, env, cwd, url, headers, driver, toolset, toolCallTimeoutSeconds, submitPolicy,
                taskTtlMs, sessionBound, maxConnections, pinnedGeneration, transport, CallSettings.defaults());
    }

    /** A server whose transport follows from command or url, with its call settings. */
    public ServerConfig(String name, String command, List<String> args, Map<String, String> env, Path cwd, URI url,
            Map<String, String> headers, String driver, Toolset toolset, int toolCallTimeoutSeconds,
            SubmitPolicy submitPolicy, Long taskTtlMs, boolean sessionBound, int maxConnections,
            ProtocolGeneration pinnedGeneration, CallSettings calls) {
        this(name, command, args, env, cwd, url, headers, driver, toolset, toolCallTimeoutSeconds, submitPolicy,
                taskTtlMs, sessionBound, maxConnections, pinnedGeneration, null, calls);
    }

    /** What the task service and the runtime need of this server. */
    public ServerProfile toProfile() {
        return new ServerProfile(name, driver, taskTtlMs, submitPolicy);
    }

    /**
     * How the transports reach this server; HTTP reads may stay silent as long as one tool call may take (a direct
     * call's response is silent until the tool is done).
     */
    public McpServerSpec toSpec() {
        int silence = Math.max(300, Math.max(toolCallTimeoutSeconds,
                calls.mayCallDirectly() ? calls.directCallTimeoutSeconds() : 0));
        return new McpServerSpec(name, command, args, env, cwd, url, headers, null, Duration.ofSeconds(silence), 0,
                isStdio() ? 0 : maxConnections, isStdio() ? null : transport);
    }

    /** How the MCP client treats this server: request bound and whether its tasks live in one session. */
    public McpServerSettings toMcpSettings() {
        return new McpServerSettings(toSpec(), Duration.ofSeconds(toolCallTimeoutSeconds), sessionBound,
                pinnedGeneration, Duration.ofSeconds(calls.directCallTimeoutSeconds()), calls.callMode(),
                calls.callModes());
    }

    /** The same server with other OAuth settings. */
    public ServerConfig withAuth(AuthConfig newAuth) {
        return new ServerConfig(name, command, args, env, cwd, url, headers, driver, toolset, toolCallTimeoutSeconds,
                submitPolicy, taskTtlMs, sessionBound, maxConnections, pinnedGeneration, transport, calls, newAuth);
    }

    /** Whether this server's tokens come from OAuth. */
    public boolean hasAuth() {
        return auth != null;
    }

    public boolean isStdio() {
        return command != null;
    }

    @Override
    public String toString() {
        return "ServerConfig[name=" + name
                + (isStdio() ? ", command=" + command + ", args=" + args + ", env keys=" + env.keySet()
                        : ", url=" + url + (transport == null ? "" : ", transport=" + transport) + ", header names="
                                + headers.keySet() + ", maxConnections=" + maxConnections)
                + ", driver=" + driver + ", toolCallTimeoutSeconds=" + toolCallTimeoutSeconds
                + ", submitPolicy=" + submitPolicy + ", taskTtlMs=" + taskTtlMs + ", sessionBound=" + sessionBound
                + ", protocol=" + (pinnedGeneration == null ? AUTO_PROTOCOL : pinnedGeneration.protocolVersion())
                + ", callMode=" + calls.callMode().wireName() + ", callModes=" + calls.callModes()
                + ", directCallTimeoutSeconds=" + calls.directCallTimeoutSeconds()
                + (auth == null ? "" : ", auth=" + auth) + "]";
    }
}
