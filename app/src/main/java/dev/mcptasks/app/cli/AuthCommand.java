package dev.mcptasks.app.cli;

import dev.mcptasks.adapters.oauth.CredentialStatus;
import dev.mcptasks.adapters.oauth.LoginOutcome;
import dev.mcptasks.adapters.oauth.OAuthLogins;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ServerConfig;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code auth login|logout|status}: the OAuth tokens of the servers with {@code auth}, stored sealed in the task
 * store where every worker finds them. Nothing here ever prints a token or a secret: login prints the url to open
 * and what was granted, status what is stored about a token (expiry, refreshability, scopes).
 */
@Command(name = "auth", description = "Log in to OAuth-protected servers, log out, show what is stored.",
        subcommands = {AuthCommand.Login.class, AuthCommand.Logout.class, AuthCommand.Status.class})
final class AuthCommand implements Runnable {
    @ParentCommand
    McpTasksCommand root;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(root.context().out());
    }

    /** The OAuth side of the application for these commands; the caller closes it. */
    Application open(AppConfig config) {
        return root.context().applications().openLogins(config);
    }

    /** Whether any server has auth; if none, says so (exit 2 follows: the command has nothing to work on). */
    boolean anyAuth(AppConfig config) {
        if (config.servers().values().stream().anyMatch(ServerConfig::hasAuth)) {
            return true;
        }
        root.context().err().println("mcp-tasks: no server in " + config.source() + " has 'auth'");
        return false;
    }

    @Command(name = "login", description = "Obtain and store tokens for a server now: opens the browser (--browser,"
            + " the server's auth.browser, else $BROWSER; with none, prints the url to open) and waits for the"
            + " redirect to a loopback listener. With grant client_credentials it fetches a token.")
    static final class Login implements Callable<Integer> {
        @ParentCommand
        AuthCommand auth;

        @Parameters(index = "0", paramLabel = "SERVER", description = "A server configured with 'auth'.")
        String server;

        @Option(names = "--browser", paramLabel = "CMD",
                description = "Command that opens the url (given as its last argument), e.g. 'firefox'; quoted"
                        + " words keep their spaces, as in a shell.")
        String browser;

        @Override
        public Integer call() {
            CliContext context = auth.root.context();
            AppConfig config = auth.root.config();
            ServerConfig target = config.server(server).orElse(null);
            if (target == null) {
                context.err().println("mcp-tasks: no server '" + server + "' in " + config.source());
                return ExitCodes.USAGE;
            }
            if (!target.hasAuth()) {
                context.err().println("mcp-tasks: server '" + server + "' has no 'auth' in " + config.source());
                return ExitCodes.USAGE;
            }
            if (browser != null) {
                if (browser.isBlank()) {
                    context.err().println("mcp-tasks: --browser must name a command");
                    return ExitCodes.USAGE;
                }
                target = target.withAuth(target.auth().withBrowser(browser));
                config = config.withServer(target);
            }
            try (Application app = auth.open(config)) {
                PrintStream progress = WriterStream.printStream(context.out());
                LoginOutcome outcome = app.get(OAuthLogins.class).login(target.toSpec(), progress);
                progress.flush();
                if (outcome instanceof LoginOutcome.LoggedIn in) {
                    context.out().println("logged in to server '" + in.server() + "': tokens stored"
                            + (in.expiresAt() == null ? "" : ", expire " + in.expiresAt())
                            + (in.scopes().isEmpty() ? "" : ", scopes " + String.join(" ", in.scopes())));
                    return ExitCodes.OK;
                }
                context.err().println("mcp-tasks: login to server '" + server + "' failed: "
                        + oneLine(((LoginOutcome.Failed) outcome).reason()));
                return ExitCodes.FAILED;
            }
        }
    }

    @Command(name = "logout", description = "Forget a server's stored tokens (every worker stops using them).")
    static final class Logout implements Callable<Integer> {
        @ParentCommand
        AuthCommand auth;

        @Parameters(index = "0", paramLabel = "SERVER",
                description = "A server configured with 'auth' (or one removed from the configuration).")
        String server;

        @Override
        public Integer call() {
            CliContext context = auth.root.context();
            AppConfig config = auth.root.config();
            if (!auth.anyAuth(config)) {
                return ExitCodes.USAGE;
            }
            try (Application app = auth.open(config)) {
                boolean removed = app.get(OAuthLogins.class).logout(server);
                context.out().println(removed ? "logged out of server '" + server + "': stored tokens removed"
                        : "no tokens were stored for server '" + server + "'");
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "status", description = "Show what is stored per OAuth server: present, expiry, refreshable,"
            + " scopes (never a token).")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        AuthCommand auth;

        @Override
        public Integer call() {
            CliContext context = auth.root.context();
            AppConfig config = auth.root.config();
            if (!auth.anyAuth(config)) {
                return ExitCodes.USAGE;
            }
            try (Application app = auth.open(config)) {
                List<CredentialStatus> statuses = app.get(OAuthLogins.class).status();
                TextTable table = new TextTable("SERVER", "PRESENT", "EXPIRES", "REFRESHABLE", "SCOPES");
                for (CredentialStatus status : statuses) {
                    table.row(status.server(), yesNo(status.present()), status.present() ? status.expiresAt() : null,
                            status.present() ? yesNo(status.refreshable()) : null,
                            status.scopes().isEmpty() ? null : String.join(" ", status.scopes()));
                }
                table.print(context.out());
                return ExitCodes.OK;
            }
        }
    }

    private static String yesNo(boolean value) {
        return value ? "yes" : "no";
    }

    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
