package dev.mcptasks.app.cli;

import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.demo.DemoRun;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code demo}: the runtime's main job on a fresh SQLite file with the reference server; exits 0 when it holds. Its
 * admin listener is on by default, on a free loopback port: loopback only and no fixed port, so it never conflicts
 * with anything, and a first-time user sees {@code /metrics} and the dashboard move while the demo runs.
 */
@Command(name = "demo", description = "Run the demo: reference server, two workers, ~30 tasks, one crash.")
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    McpTasksCommand root;

    @Option(names = "--admin-port", paramLabel = "PORT", description = "Port of the admin listener on 127.0.0.1:"
            + " /metrics and the dashboard while the demo runs (default 0: any free port, printed at start).")
    int adminPort;

    @Option(names = "--no-admin", description = "Run without the admin listener.")
    boolean noAdmin;

    @Override
    public Integer call() throws Exception {
        if (adminPort < 0 || adminPort > 65_535) {
            throw new ConfigException("--admin-port", "--admin-port must be between 0 and 65535, was " + adminPort);
        }
        return new DemoRun(root.context().out(), System.console() != null, noAdmin ? null : adminPort).run();
    }
}
