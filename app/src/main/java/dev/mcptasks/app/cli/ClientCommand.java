package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.ParentCommand;

/** A command that works on the store only (no worker): opens a client application, runs, closes it. */
abstract class ClientCommand implements Callable<Integer> {
    @ParentCommand
    McpTasksCommand root;

    @Override
    public final Integer call() throws Exception {
        return openAndRun(root, this::run);
    }

    abstract int run(Application app, AppConfig config, CliContext context) throws Exception;

    /** Runs {@code work} on a client application of {@code root}'s configuration (also for nested commands). */
    static int openAndRun(McpTasksCommand root, Work work) throws Exception {
        AppConfig config = root.config();
        try (Application app = root.context().applications().openClient(config)) {
            return work.run(app, config, root.context());
        }
    }

    /** What a client command does with the open application. */
    interface Work {
        int run(Application app, AppConfig config, CliContext context) throws Exception;
    }
}
