package dev.mcptasks.testkit.transport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the shared script that starts the pinned third-party server-everything for interop tests: named by
 * {@value #SCRIPT_ENV}, or {@code shared/peer/run-everything.sh} in a directory above the project root (the directory
 * holding {@code mvnw}; a git worktree sits one level deeper, so the search keeps walking up).
 */
public final class EverythingPeerScript {
    public static final String SCRIPT_ENV = "MCP_TASKS_PEER_SCRIPT";

    private EverythingPeerScript() {}

    /** The executable script, or empty when there is none here. */
    public static Optional<Path> script() {
        String override = System.getenv(SCRIPT_ENV);
        if (override != null && !override.isBlank()) {
            Path path = Path.of(override);
            return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
        }
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        for (Path up = dir == null ? null : dir.getParent(); up != null; up = up.getParent()) {
            Path candidate = up.resolve("shared/peer/run-everything.sh");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code program} is an executable on the PATH (node, for the peer). */
    public static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
