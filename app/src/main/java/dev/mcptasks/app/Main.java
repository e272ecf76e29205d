package dev.mcptasks.app;

import dev.mcptasks.app.cli.Cli;
import dev.mcptasks.app.cli.CliContext;

/** The {@code mcp-tasks} executable. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(Cli.run(CliContext.system(), args));
    }
}
