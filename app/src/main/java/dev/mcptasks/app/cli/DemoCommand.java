package dev.mcptasks.app.cli;

import dev.mcptasks.app.demo.DemoRun;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code demo}: the runtime's main job on a fresh SQLite file with the reference server; exits 0 when it holds. */
@Command(name = "demo", description = "Run the demo: reference server, two workers, ~30 tasks, one crash.")
final class DemoCommand implements Callable<Integer> {
    @ParentCommand
    McpTasksCommand root;

    @Override
    public Integer call() throws Exception {
        return new DemoRun(root.context().out(), System.console() != null).run();
    }
}
