package dev.mcptasks.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code demo}: the runtime's main job on a fresh SQLite file with the reference server. */
@Command(name = "demo", description = "Run the demo: reference server, two workers, ~30 tasks, one crash.")
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    McpTasksCommand root;

    @Override
    public Integer call() throws Exception {
        root.context().err().println("mcp-tasks: the demo is not wired yet");
        return ExitCodes.FAILED;
    }
}
