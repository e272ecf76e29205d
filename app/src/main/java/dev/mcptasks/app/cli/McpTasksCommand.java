package dev.mcptasks.app.cli;

import dev.mcptasks.app.config.AppConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code mcp-tasks} command: runs long MCP tool calls as durable, leased tasks. */
// scope INHERIT hands -h/--help (and -V/--version) to every sub-command and sub-sub-command.
@Command(name = "mcp-tasks", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT, version = "mcp-tasks 0.1.0",
        description = "Runs long MCP tool calls as durable, leased tasks.",
        subcommands = {ServeCommand.class, SubmitCommand.class, ListCommand.class, ShowCommand.class,
            CancelCommand.class, AnswerCommand.class, ResultCommand.class, WorkersCommand.class,
            NotificationsCommand.class, GatewayCommand.class, ReferenceServerCommand.class, DemoCommand.class,
            AuthCommand.class, PurgeCommand.class, AuditCommand.class, CompletionCommand.class, HelpCommand.class})
public final class McpTasksCommand implements Callable<Integer> {
    private final CliContext context;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Configuration file (default: $MCP_TASKS_CONFIG, else ./mcp-tasks.json, else built-in defaults).")
    Path configFile;

    McpTasksCommand(CliContext context) {
        this.context = context;
    }

    CliContext context() {
        return context;
    }

    /** Reads the configuration; a {@code ConfigException} reaches the handler that exits 2. */
    AppConfig config() {
        return context.configLoader().load(configFile);
    }

    /** A bare {@code mcp-tasks} names no command: a usage error, so the usage goes to stderr and it exits 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(context.err());
        return ExitCodes.USAGE;
    }
}
