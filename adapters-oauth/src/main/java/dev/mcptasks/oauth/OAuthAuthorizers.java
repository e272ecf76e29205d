package dev.mcptasks.oauth;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** One authorizer per configured server name; the login commands work on the same instances. */
final class OAuthAuthorizers implements HttpAuthorizers, OAuthLogins {
    private final Map<String, OAuthSettings> byServer;
    private final TokenSeal seal;
    private final CredentialStore store;
    private final Clock clock;

    OAuthAuthorizers(Map<String, OAuthSettings> byServer, TokenSeal seal, CredentialStore store, Clock clock) {
        this.byServer = Map.copyOf(byServer);
        this.seal = seal;
        this.store = store;
        this.clock = clock;
    }

    @Override
    public HttpAuthorizer forServer(McpServerSpec server) {
        return HttpAuthorizer.NONE;
    }

    @Override
    public LoginOutcome login(McpServerSpec server, PrintStream progress) {
        return new LoginOutcome.Failed("not implemented yet");
    }

    @Override
    public boolean logout(String serverName) {
        return false;
    }

    @Override
    public List<CredentialStatus> status() {
        return List.of();
    }
}
