package dev.mcptasks.app.config;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.mcp.CallMode;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Reads one {@code mcpServers} entry: the transport (command or url), its driver and its per-server settings. */
final class ServerConfigReader {
    /** Longest server name: task rows store it in a bounded column. */
    static final int MAX_NAME_LENGTH = 256;

    private static final Set<String> KEYS = Set.of("type", "command", "args", "env", "cwd", "url", "headers",
            "driver", "toolset", "toolCallTimeoutSeconds", "submitPolicy", "taskTtlMs", "sessionBound",
            "maxConnections", "protocol", "transport", "callMode", "callModes", "directCallTimeoutSeconds", "auth");
    private static final Set<String> TOOLSET_KEYS = Set.of("submit", "status", "cancel");

    private final EnvSubstitution substitution;
    private final Path workingDirectory;
    private final AuthConfigReader authReader;

    ServerConfigReader(EnvSubstitution substitution, Path workingDirectory) {
        this.substitution = substitution;
        this.workingDirectory = workingDirectory;
        this.authReader = new AuthConfigReader(substitution, workingDirectory);
    }

    ServerConfig read(String name, JsonSection server) {
        String at = server.path();
        if (name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            throw new ConfigException(at, at + ": a server name must be 1.." + MAX_NAME_LENGTH + " visible characters");
        }
        server.requireOnly(KEYS);
        String command = server.string("command");
        String url = server.string("url");
        if ((command == null) == (url == null)) {
            throw new ConfigException(at, at + " needs exactly one of 'command' (stdio) or 'url' (HTTP)"
                    + (command == null ? ", has neither" : ", has both"));
        }
        String transport = readTransport(server, command != null);
        if (command == null) {
            rejectPresent(server, "url", "args", "env", "cwd");
        } else {
            // a child process is one pipe: a connection bound there is a mistake, like headers; OAuth is for HTTP
            rejectPresent(server, "command", "headers", "maxConnections", "auth");
        }
        String driver = server.string("driver");
        driver = driver == null ? ServerConfig.NATIVE_DRIVER : driver;
        if (!driver.equals(ServerConfig.NATIVE_DRIVER) && !driver.equals(ServerConfig.ORDINARY_TOOLS_DRIVER)) {
            throw new ConfigException(server.path("driver"), server.path("driver") + " must be "
                    + ServerConfig.NATIVE_DRIVER + " or " + ServerConfig.ORDINARY_TOOLS_DRIVER + ", was '" + driver + "'");
        }
        // stdio tasks always live in the child process; an HTTP server is taken to share its tasks across sessions
        // unless configured (or detected by the runtime, which then remembers it) to bind them to one
        boolean sessionBound = server.bool("sessionBound", false);
        return new ServerConfig(name, command, server.stringList("args"),
                substitution.resolveAll(server.path("env"), server.stringMap("env")),
                readCwd(server), readUrl(server, url),
                substitution.resolveAll(server.path("headers"), server.stringMap("headers")),
                driver, readToolset(server, driver),
                server.intIn("toolCallTimeoutSeconds", 60, 1, 3600),
                readSubmitPolicy(server),
                server.has("taskTtlMs") ? server.longIn("taskTtlMs", 0, 1, Long.MAX_VALUE) : null,
                command != null || sessionBound,
                command != null ? 0 : server.intIn("maxConnections", McpServerSpec.DEFAULT_MAX_CONNECTIONS, 1,
                        McpServerSpec.MAX_CONNECTIONS_LIMIT),
                readProtocol(server), command != null ? null : transport, readCalls(server, driver),
                readAuth(server));
    }

    private AuthConfig readAuth(JsonSection server) {
        if (!server.has("auth")) {
            return null;
        }
        AuthConfigReader.rejectAuthorizationHeader(server);
        return authReader.read(server.section("auth"));
    }

    /**
     * {@code "transport": "auto" | "http" | "sse"} for a url ({@code stdio} for a command), or the other MCP
     * clients' {@code "type": "stdio" | "http" | "streamable-http" | "sse"}; both may be given when they agree. The
     * kind for the spec, or null for auto (a url whose transport is detected).
     */
    private static String readTransport(JsonSection server, boolean stdio) {
        String transport = server.string("transport");
        if (transport != null && !(stdio ? transport.equals(McpServerSpec.STDIO)
                : transport.equals(ServerConfig.AUTO_TRANSPORT) || transport.equals(McpServerSpec.HTTP)
                        || transport.equals(McpServerSpec.SSE))) {
            throw new ConfigException(server.path("transport"), server.path("transport") + " must be "
                    + (stdio ? "stdio for a server with a command" : "auto, http or sse for a server with a url")
                    + ", was '" + transport + "'");
        }
        String type = typeKind(server, stdio);
        if (type != null && transport != null && !type.equals(transport)) {
            throw new ConfigException(server.path("type"), server.path("type") + " disagrees with "
                    + server.path("transport") + " ('" + server.string("type") + "' and '" + transport + "')");
        }
        String kind = transport != null ? transport : type;
        return kind == null || kind.equals(ServerConfig.AUTO_TRANSPORT) ? null : kind;
    }

    /**
     * {@code "callMode": "auto" | "task" | "direct"}, {@code "callModes": {"tool": mode}} and
     * {@code directCallTimeoutSeconds}: how the native driver calls tools. The ordinary-tools driver makes only plain
     * calls of its configured toolset, so the keys are a mistake there.
     */
    private static CallSettings readCalls(JsonSection server, String driver) {
        if (driver.equals(ServerConfig.ORDINARY_TOOLS_DRIVER)) {
            rejectPresent(server, "driver " + ServerConfig.ORDINARY_TOOLS_DRIVER, "callMode", "callModes",
                    "directCallTimeoutSeconds");
        }
        Map<String, CallMode> perTool = new LinkedHashMap<>();
        server.stringMap("callModes").forEach((tool, mode) -> perTool.put(tool,
                callMode(server.section("callModes").path(tool), mode)));
        String mode = server.string("callMode");
        return new CallSettings(server.intIn("directCallTimeoutSeconds",
                CallSettings.DEFAULT_DIRECT_CALL_TIMEOUT_SECONDS, 1, CallSettings.MAX_DIRECT_CALL_TIMEOUT_SECONDS),
                mode == null ? CallMode.AUTO : callMode(server.path("callMode"), mode), perTool);
    }

    private static CallMode callMode(String path, String value) {
        try {
            return CallMode.fromConfig(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(path, path + " " + e.getMessage());
        }
    }

    /**
     * {@code "protocol": "auto" | "2025-11-25" | "2026-07-28"}: the tasks generation to speak with new tasks of the
     * server; auto (the default, null) discovers it. Existing tasks keep the generation they were created with.
     */
    private static ProtocolGeneration readProtocol(JsonSection server) {
        String value = server.string("protocol");
        if (value == null || value.equals(ServerConfig.AUTO_PROTOCOL)) {
            return null;
        }
        try {
            return ProtocolGeneration.fromPin(value);
        } catch (DomainException e) {
            throw new ConfigException(server.path("protocol"), server.path("protocol")
                    + " must be auto, 2025-11-25 or 2026-07-28, was '" + value + "'");
        }
    }

    /** Other MCP clients write {@code "type": "stdio" | "http" | "sse"}: the kind it names, or null when absent. */
    private static String typeKind(JsonSection server, boolean stdio) {
        String type = server.string("type");
        if (type == null) {
            return null;
        }
        if (stdio && type.equals("stdio")) {
            return McpServerSpec.STDIO;
        }
        if (!stdio && (type.equals("http") || type.equals("streamable-http"))) {
            return McpServerSpec.HTTP;
        }
        if (!stdio && type.equals("sse")) {
            return McpServerSpec.SSE;
        }
        throw new ConfigException(server.path("type"), server.path("type") + " must be "
                + (stdio ? "'stdio' for a server with a command" : "'http' or 'sse' for a server with a url")
                + ", was '" + type + "'");
    }

    /** Keys of the other transport are a mistake (for example {@code headers} on a stdio server). */
    private static void rejectPresent(JsonSection server, String transportKey, String... keys) {
        for (String key : keys) {
            if (server.has(key)) {
                throw new ConfigException(server.path(key), server.path(key) + " is not valid for a server with '"
                        + transportKey + "'");
            }
        }
    }

    private Path readCwd(JsonSection server) {
        String cwd = server.string("cwd");
        if (cwd == null) {
            return null;
        }
        try {
            return workingDirectory.resolve(cwd).normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(server.path("cwd"), server.path("cwd") + " is not a valid path");
        }
    }

    private static URI readUrl(JsonSection server, String url) {
        if (url == null) {
            return null;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new ConfigException(server.path("url"), server.path("url") + " must be an http:// or https:// url");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new ConfigException(server.path("url"), server.path("url") + " is not a valid url: " + e.getReason());
        }
    }

    private static Toolset readToolset(JsonSection server, String driver) {
        boolean ordinary = driver.equals(ServerConfig.ORDINARY_TOOLS_DRIVER);
        if (!server.has("toolset")) {
            if (ordinary) {
                throw new ConfigException(server.path("toolset"), server.path("toolset")
                        + " is required with driver " + ServerConfig.ORDINARY_TOOLS_DRIVER);
            }
            return null;
        }
        if (!ordinary) {
            throw new ConfigException(server.path("toolset"), server.path("toolset")
                    + " is only valid with driver " + ServerConfig.ORDINARY_TOOLS_DRIVER);
        }
        JsonSection toolset = server.section("toolset");
        toolset.requireOnly(TOOLSET_KEYS);
        // a server whose jobs cannot be cancelled names no cancel tool: a cancel is then not sent, and the task is
        // tracked to its real end
        return new Toolset(toolset.requiredString("submit"), toolset.requiredString("status"),
                toolset.string("cancel"));
    }

    private static SubmitPolicy readSubmitPolicy(JsonSection server) {
        String value = server.string("submitPolicy");
        if (value == null) {
            return SubmitPolicy.AT_MOST_ONCE;
        }
        try {
            return SubmitPolicy.fromConfig(value);
        } catch (DomainException e) {
            throw new ConfigException(server.path("submitPolicy"), server.path("submitPolicy")
                    + " must be atMostOnce or atLeastOnce, was '" + value + "'");
        }
    }
}
