package dev.mcptasks.app.cli;

import dev.mcptasks.reference.ReferenceServerMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/** {@code reference-server (--stdio | --http PORT)}: the bundled reference MCP server with task support. */
@Command(name = "reference-server", description = "Run the bundled reference MCP server (tasks, scripted behaviours).")
final class ReferenceServerCommand implements Callable<Integer> {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Mode mode;

    /** Exactly one transport. */
    static final class Mode {
        @Option(names = "--stdio", required = true, description = "Serve MCP over stdin/stdout.")
        boolean stdio;

        @Option(names = "--http", required = true, paramLabel = "PORT", description = "Serve Streamable HTTP on PORT.")
        Integer httpPort;
    }

    /** The reference server's own options ({@code --session-scoped}, {@code --ttl-ms N}, ...), passed through. */
    @Unmatched
    List<String> serverOptions = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        List<String> args = new ArrayList<>(mode.stdio ? List.of("--stdio")
                : List.of("--http", Integer.toString(mode.httpPort)));
        args.addAll(serverOptions);
        ReferenceServerMain.main(args.toArray(String[]::new));
        return ExitCodes.OK;
    }
}
