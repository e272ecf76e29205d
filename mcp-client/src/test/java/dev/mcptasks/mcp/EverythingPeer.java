package dev.mcptasks.mcp;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.testkit.transport.EverythingPeerScript;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The third-party server-everything (Node 20) for interop tests, started by the shared peer script: found as
 * {@code ../shared/peer/run-everything.sh} next to the project root (the directory holding {@code mvnw}), or above
 * it, or named by {@code MCP_TASKS_PEER_SCRIPT}.
 */
final class EverythingPeer {
    static final String SCRIPT_ENV = EverythingPeerScript.SCRIPT_ENV;

    private EverythingPeer() {}

    /** Why interop with server-everything cannot run here, or empty when it can. */
    static Optional<String> unavailable() {
        if (!onPath("node")) {
            return Optional.of("node is not on the PATH");
        }
        if (script().isEmpty()) {
            return Optional.of("the peer script was not found (set " + SCRIPT_ENV + ")");
        }
        return Optional.empty();
    }

    static Optional<Path> script() {
        return EverythingPeerScript.script();
    }

    private static boolean onPath(String program) {
        return EverythingPeerScript.onPath(program);
    }

    /** The child's environment: the script needs HOME for npm, and an install directory override if given. */
    static Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        for (String name : List.of("HOME", "TMPDIR", "MCP_PEER_DIR", "npm_config_cache", "NODE_OPTIONS")) {
            String value = System.getenv(name);
            if (value != null) {
                env.put(name, value);
            }
        }
        return env;
    }

    /** Runs the script once with stdin closed so a first-use {@code npm ci} happens before any test times it. */
    static void warmUp() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(script().orElseThrow().toString(), "stdio")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = builder.start();
        if (!process.waitFor(300, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("server-everything did not install and start within 300 s");
        }
    }

    static McpServerSpec stdioSpec(String name) {
        return McpServerSpec.stdio(name, script().orElseThrow().toString(), List.of("stdio"), environment());
    }

    /** A started HTTP server-everything; closing it stops the process. */
    static final class Http implements AutoCloseable {
        final int port;
        private final Process process;

        Http() throws IOException {
            try (ServerSocket probe = new ServerSocket(0)) {
                port = probe.getLocalPort();
            }
            ProcessBuilder builder = new ProcessBuilder(script().orElseThrow().toString(), "http",
                    Integer.toString(port))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            process = builder.start();
        }

        McpServerSpec spec(String name) {
            return McpServerSpec.http(name, URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of());
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroy);
            process.destroy();
            try {
                if (process.waitFor(10, TimeUnit.SECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
