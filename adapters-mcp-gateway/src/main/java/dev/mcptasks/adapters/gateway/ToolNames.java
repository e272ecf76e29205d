package dev.mcptasks.adapters.gateway;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The front tool naming scheme: upstream tool {@code t} of server {@code s} is served as {@code s__t}. Server names
 * contain no {@code __} and do not end with {@code _}, so the first {@code __} of a front name is always the one
 * after the server: the mapping is injective and a front name decodes to its server without a catalog.
 */
final class ToolNames {
    static final String SEPARATOR = "__";
    /** The MCP tool-name charset and length (2025-11-25, server/tools: "Tool names"). */
    private static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    private static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private ToolNames() {}

    static String front(String server, String tool) {
        return server + SEPARATOR + tool;
    }

    static boolean isValidToolName(String name) {
        return name != null && TOOL_NAME.matcher(name).matches();
    }

    /** The server part of a front name, or empty when the name has no separator. */
    static Optional<String> serverOf(String frontName) {
        int at = frontName.indexOf(SEPARATOR);
        return at <= 0 ? Optional.empty() : Optional.of(frontName.substring(0, at));
    }

    static void requireServerName(String name) {
        if (name == null || !SERVER_NAME.matcher(name).matches() || name.contains(SEPARATOR) || name.endsWith("_")) {
            throw new IllegalArgumentException("server name '" + name + "' cannot prefix front tool names: use"
                    + " letters, digits, '_', '.', '-', starting with a letter or digit, no '__' and no trailing '_'");
        }
    }
}
