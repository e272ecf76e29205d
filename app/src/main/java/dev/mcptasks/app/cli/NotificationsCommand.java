package dev.mcptasks.app.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code notifications}: the dead letters of the notification outbox, events whose delivery was given up (the sink
 * answered gone, or failed the allowed number of times), listed and replayed. Without a subcommand it prints its
 * usage.
 */
@Command(name = "notifications", description = "List and replay dead-lettered notifications.",
        subcommands = {NotificationsListCommand.class, NotificationsReplayCommand.class})
final class NotificationsCommand implements Runnable {
    @ParentCommand
    McpTasksCommand root;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(root.context().out());
    }
}
