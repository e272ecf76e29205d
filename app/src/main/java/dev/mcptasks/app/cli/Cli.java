package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.StartupException;
import dev.mcptasks.app.assembly.StoreUnavailableException;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.domain.DomainException;
import dev.mcptasks.ports.repository.RepositoryException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Runs one {@code mcp-tasks} command line. Usage and configuration errors (picocli's parameter errors, a
 * {@link ConfigException}, a rejected value) print one line and exit 2; a store that cannot be opened or fails prints
 * one line naming the store and the cause and exits 5; anything unexpected prints one line, logs the stack trace at
 * debug level and exits 1.
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
            if (ex instanceof StoreUnavailableException) {
                commandLine.getErr().println("mcp-tasks: " + ex.getMessage());
                return ExitCodes.STORE_UNAVAILABLE;
            }
            if (ex instanceof StartupException) {
                LOG.debug("start-up failed", ex);
                commandLine.getErr().println("mcp-tasks: cannot start: " + ex.getMessage());
                return ExitCodes.FAILED;
            }
            if (ex instanceof RepositoryException) {
                LOG.debug("store failure", ex);
                commandLine.getErr().println("mcp-tasks: store error: " + oneLine(ex.getMessage()));
                return ExitCodes.STORE_UNAVAILABLE;
            }
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

    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }

    private static String commandPath(CommandLine line) {
        return line.getParent() == null ? "" : line.getCommandName() + " ";
    }
}
