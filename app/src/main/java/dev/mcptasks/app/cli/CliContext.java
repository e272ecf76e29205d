package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.ApplicationFactory;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.PrintWriter;
import java.util.Objects;

/**
 * What the commands need from outside: output streams, where configuration comes from, how the process is
 * assembled and how to wait. Tests pass captured streams, a temporary directory and fake platform modules.
 */
public record CliContext(PrintWriter out, PrintWriter err, ConfigLoader configLoader, ApplicationFactory applications,
        Sleeper sleeper, ShutdownHooks shutdownHooks) {

    public CliContext {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        Objects.requireNonNull(configLoader, "configLoader");
        Objects.requireNonNull(applications, "applications");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(shutdownHooks, "shutdownHooks");
    }

    /** The real process: standard streams, working directory, production modules, JVM shutdown hooks. */
    public static CliContext system() {
        return new CliContext(new PrintWriter(System.out, true), new PrintWriter(System.err, true),
                ConfigLoader.system(), AppRoot.production(), Sleeper.REAL, ShutdownHooks.JVM);
    }
}
