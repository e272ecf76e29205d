package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.PrintStream;
import java.util.List;

/** The person-facing side of OAuth: {@code bin/mcp-tasks auth login|logout|status}. */
public interface OAuthLogins {

    /**
     * Runs the server's flow now (probing the server for its challenge, the browser flow for
     * {@code authorization_code}) and stores the tokens. Progress lines (the url to open, never a token) go to
     * {@code progress}.
     */
    LoginOutcome login(McpServerSpec server, PrintStream progress);

    /** Forgets the server's tokens (memory and store); whether there were any. */
    boolean logout(String serverName);

    /** What is stored, per configured OAuth server, sorted by name. */
    List<CredentialStatus> status();
}
