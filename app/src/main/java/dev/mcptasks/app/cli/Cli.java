package dev.mcptasks.app.cli;

import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.domain.DomainException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Runs one {@code mcp-tasks} command line. Usage and configuration errors (picocli's parameter errors, a
 * {@link ConfigException}, a rejected value) print one line and exit 2; anything unexpected prints one line, logs the
 * stack trace at debug level and exits 1.
 */
public final class Cli {
    private static final Logger LOG = LoggerFactory.getLogger(Cli.class);

    private Cli() {}

    public static int run(CliContext context, String... args) {
        CommandLine line = commandLine(context);
        int code = line.execute(args);
        context.out().flush();
        context.err().flush();
        return code;
    }

    static CommandLine commandLine(CliContext context) {
        CommandLine line = new CommandLine(new McpTasksCommand(context));
        line.setOut(context.out());
        line.setErr(context.err());
        line.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("mcp-tasks: " + ex.getMessage()
                    + " (see 'mcp-tasks " + commandPath(ex.getCommandLine()) + "--help')");
            return ExitCodes.USAGE;
        });
        line.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof ConfigException || ex instanceof DomainException) {
                commandLine.getErr().println("mcp-tasks: " + ex.getMessage());
                return ExitCodes.USAGE;
            }
            LOG.debug("command failed", ex);
            commandLine.getErr().println("mcp-tasks: error: " + ex);
            return ExitCodes.FAILED;
        });
        return line;
    }

    private static String commandPath(CommandLine line) {
        return line.getParent() == null ? "" : line.getCommandName() + " ";
    }
}
