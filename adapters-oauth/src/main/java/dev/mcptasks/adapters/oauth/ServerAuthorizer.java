package dev.mcptasks.adapters.oauth;

import dev.mcptasks.adapters.oauth.CredentialSlot.Held;
import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import java.io.PrintStream;
import java.net.URI;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The OAuth client of one MCP server; its tokens are kept by a {@link CredentialSlot} (memory, and sealed in the
 * store where every worker of a deployment finds them).
 *
 * <p>Invariants: at most one flow (refresh, token request, browser login) runs per server at a time in this process;
 * challenges that arrive while it runs share its outcome ({@link #inFlight}). Flows of different servers never wait
 * on one another (each runs on the shared cached executor), and a flow cannot be held without end: every exchange
 * is bounded in size and time ({@link OAuthHttp}), the browser wait by the redirect timeout. {@link
 * #authorization()} only reads memory.
 */
final class ServerAuthorizer implements HttpAuthorizer {
    private static final Logger LOG = LoggerFactory.getLogger(ServerAuthorizer.class);

    private final String server;
    private final OAuthSettings settings;
    private final OAuthContext context;
    private final String key;
    private final ClientAssertion assertion;
    private final Discovery discovery;
    private final CredentialSlot slot;
    private final Object lock = new Object();

    // guarded by lock
    private CompletableFuture<AuthAttempt> inFlight;
    // guarded by lock: whether inFlight is a refresh ahead of expiry (started by authorization(), not a challenge)
    private boolean inFlightAhead;
    // no refresh ahead of expiry before this (after one started); read and written by request threads, racily:
    // at worst two refreshes ahead start, and the second shares the first's flow
    private volatile Instant nextRefreshAhead = Instant.MIN;
    // guarded by lock: the last discovery, reused while challenges name the same resource metadata
    private Discovery.Discovered discovered;
    private String discoveredFrom;

    ServerAuthorizer(String server, OAuthSettings settings, OAuthContext context) {
        this.server = server;
        this.settings = settings;
        this.context = context;
        this.key = key(server);
        this.assertion = settings.privateKeyPem() == null ? null
                : new ClientAssertion(settings.privateKeyPem(), settings.signingAlgorithm());
        this.discovery = new Discovery(context.http());
        this.slot = new CredentialSlot(context.store(), context.seal(), key, server, context.secrets());
    }

    /** The server's url: a stored credential is used only when it is for this url ({@link BoundCredentials}). */
    void bind(URI endpoint) {
        slot.bind(endpoint);
    }

    static String key(String server) {
        return "oauth:" + server;
    }

    String server() {
        return server;
    }

    /** Reads the stored token in the background, so that the first request of a worker can carry it. */
    void preload() {
        CompletableFuture.runAsync(() -> {
            try {
                slot.reload();
            } catch (RuntimeException e) {
                LOG.warn("server '{}': cannot read the stored OAuth credential: {}", server, e.getMessage());
            }
        }, context.executor());
    }

    @Override
    public String authorization() {
        Held current = slot.held();
        if (current == null || !current.credential().hasToken()) {
            return null;
        }
        Credential credential = current.credential();
        Instant now = context.clock().now();
        if (credential.refreshToken() != null && dueForRefresh(credential) && !now.isBefore(nextRefreshAhead)) {
            // near expiry: refresh in the background; this request still goes with the current token, and a 401
            // meets the refresh in flight. A failed refresh ahead is not tried again for a while (the 401 path
            // still refreshes at once), so a down authorization server is not asked on every request.
            nextRefreshAhead = now.plus(context.refreshSkew().dividedBy(2));
            startFlow(() -> refreshAhead(current), true);
        }
        return credential.header();
    }

    @Override
    public CompletableFuture<AuthAttempt> challenged(AuthChallenge challenge) {
        return startFlow(() -> answer(challenge), false);
    }

    /**
     * Starts {@code flow} unless one is running, whose outcome is then shared. A challenge that meets a refresh
     * ahead of expiry takes its token when it got one, and otherwise answers the challenge itself afterwards (the
     * refresh may have failed for reasons the challenge's own flow gets past, e.g. by authorizing anew).
     */
    private CompletableFuture<AuthAttempt> startFlow(Supplier<AuthAttempt> flow, boolean ahead) {
        synchronized (lock) {
            // a completed flow may not have cleared itself yet (dependents run in no set order): it is over
            if (inFlight != null && !inFlight.isDone()) {
                if (inFlightAhead && !ahead) {
                    return inFlight.thenCompose(attempt -> attempt instanceof AuthAttempt.Retry
                            ? CompletableFuture.completedFuture(attempt) : startFlow(flow, false));
                }
                return inFlight;
            }
            CompletableFuture<AuthAttempt> started = CompletableFuture.supplyAsync(() -> {
                try {
                    return flow.get();
                } catch (OAuthFailure | TokenSeal.SealException | IllegalArgumentException e) {
                    return refused(e.getMessage());
                } catch (RuntimeException e) {
                    LOG.warn("server '{}': OAuth flow failed", server, e);
                    return refused(e.toString());
                }
            }, context.executor());
            inFlight = started;
            inFlightAhead = ahead;
            started.whenComplete((attempt, failure) -> {
                synchronized (lock) {
                    if (inFlight == started) {
                        inFlight = null;
                    }
                }
            });
            return started;
        }
    }

    private AuthAttempt refused(String reason) {
        return new AuthAttempt.Refused("server '" + server + "': " + reason);
    }

    private AuthAttempt refreshAhead(Held seen) {
        Held current = slot.reload();
        if (current == null || !current.credential().hasToken()) {
            return refused("no token");
        }
        if (current.version() != seen.version() && !dueForRefresh(current.credential())) {
            return new AuthAttempt.Retry(current.credential().header());
        }
        try {
            return refresh(current);
        } catch (OAuthFailure.TokenError e) {
            if (e.grantRefused()) {
                LOG.info("server '{}': the refresh token was refused; a new authorization is needed", server);
                drop(current);
            }
            throw e;
        }
    }

    private boolean dueForRefresh(Credential credential) {
        return credential.expiresAt() != null
                && !context.clock().now().isBefore(credential.expiresAt().minus(context.refreshSkew()));
    }

    /** The answer to a challenge: reuse a newer token, refresh, or authorize again (bounded). */
    private AuthAttempt answer(AuthChallenge challenge) {
        bind(challenge.resource());
        Challenge parsed = Challenge.parse(challenge.wwwAuthenticate());
        Held current = slot.reload();
        Credential credential = current == null ? null : current.credential();
        boolean stepUp = challenge.status() == 403;
        if (stepUp && !parsed.insufficientScope()) {
            return refused("the server forbids the request (HTTP 403"
                    + (parsed.error() == null ? "" : ", " + parsed.error()) + "); not a scope problem a new token "
                    + "would solve");
        }
        if (credential != null && credential.hasToken() && !credential.header().equals(challenge.sentAuthorization())
                && !expired(credential) && (!stepUp || credential.scopes().containsAll(parsed.scopes()))) {
            // another flow (here or in another worker) replaced the refused token since the request went out
            return new AuthAttempt.Retry(credential.header());
        }
        if (!stepUp && credential != null && credential.refreshToken() != null) {
            try {
                return refresh(current);
            } catch (OAuthFailure.TokenError e) {
                if (!e.grantRefused()) {
                    throw e;
                }
                LOG.info("server '{}': the refresh token was refused; a new authorization is needed", server);
                current = drop(current);
                credential = current.credential();
            }
        }
        List<String> target;
        int attempts;
        if (stepUp) {
            List<String> heldScopes = credential == null ? List.of() : credential.scopes();
            target = Scopes.union(heldScopes, parsed.scopes());
            attempts = credential != null && Scopes.sameSet(credential.requested(), target)
                    ? credential.attempts() + 1 : 1;
            if (attempts > MAX_CHALLENGES) {
                return refused("still refused for insufficient scope after " + MAX_CHALLENGES
                        + " authorizations with scopes " + AuthorizationCodeFlow.describe(target)
                        + "; the account may lack them");
            }
        } else {
            // an authorization for a 401 starts the count for its scopes: a 403 that follows for the same scopes
            // is the second attempt at them (the conformance suite's limit counts authorizations, whatever the cause)
            target = null;
            attempts = 1;
        }
        Discovery.Discovered found = discover(challenge.resource(), parsed);
        if (target == null) {
            target = baseScopes(parsed, found);
            if (credential != null && !credential.requested().isEmpty()) {
                // keep scopes a step-up added earlier
                target = Scopes.union(target, credential.requested());
            }
        }
        return authorize(current, found, target, attempts, false, null);
    }

    private List<String> baseScopes(Challenge challenge, Discovery.Discovered found) {
        List<String> base = !settings.scopes().isEmpty() ? settings.scopes()
                : !challenge.scopes().isEmpty() ? challenge.scopes() : found.resourceScopes();
        return Scopes.union(base, challenge.scopes());
    }

    private Discovery.Discovered discover(URI resource, Challenge challenge) {
        String from = challenge.resourceMetadata() == null ? "" : challenge.resourceMetadata();
        synchronized (lock) {
            if (discovered != null && from.equals(discoveredFrom)) {
                return discovered;
            }
        }
        Discovery.Discovered found = discovery.discover(resource, challenge, settings.authorizationServer());
        synchronized (lock) {
            discovered = found;
            discoveredFrom = from;
        }
        return found;
    }

    private AuthAttempt authorize(Held current, Discovery.Discovered found, List<String> scopes, int attempts,
            boolean interactive, PrintStream progress) {
        AuthServerMetadata as = found.server();
        Instant now = context.clock().now();
        TokenClient.Tokens tokens;
        OAuthClient client;
        if (OAuthSettings.CLIENT_CREDENTIALS.equals(settings.grant())) {
            client = new OAuthClient(settings.clientId(), settings.clientSecret(),
                    OAuthClient.chooseMethod(settings, as), null);
            Map<String, String> grant = new LinkedHashMap<>();
            grant.put("grant_type", "client_credentials");
            if (!scopes.isEmpty()) {
                grant.put("scope", Scopes.join(scopes));
            }
            grant.put("resource", found.resource().toString());
            tokens = new TokenClient(context.http()).request(as.tokenEndpoint(), as.audience(), client, assertion,
                    grant, scopes, now);
        } else {
            String browserCommand = settings.browserCommand() != null ? settings.browserCommand()
                    : interactive ? System.getenv("BROWSER") : null;
            if (!interactive && browserCommand == null) {
                if (current != null && !Scopes.sameSet(current.credential().requested(), scopes)) {
                    // remember what the server demanded, so that the login asks for it
                    slot.save(current, current.credential().wanting(scopes));
                }
                return new AuthAttempt.Refused("server '" + server + "' needs a login"
                        + (scopes.isEmpty() ? "" : " with scopes " + AuthorizationCodeFlow.describe(scopes))
                        + ": run bin/mcp-tasks auth login " + server);
            }
            OAuthClient registered = current == null ? null : current.credential().client();
            AuthorizationCodeFlow.Result result = new AuthorizationCodeFlow(server, settings, context, assertion)
                    .run(found, scopes, registered, browserCommand == null ? null
                            : context.browsers().apply(browserCommand), progress);
            tokens = result.tokens();
            client = result.client();
        }
        // a configured client's secret stays in the configuration (it may be rotated there); a registered one's is
        // only known from the registration, so it is stored (sealed)
        OAuthClient stored = client.issuer() == null
                ? new OAuthClient(client.clientId(), null, client.authMethod(), null) : client;
        Credential credential = new Credential(tokens.accessToken(), tokens.refreshToken(), tokens.expiresAt(),
                tokens.scopes(), scopes, attempts, as.tokenEndpoint(), as.audience(), found.resource(), stored);
        Held saved = slot.save(current, credential);
        LOG.info("server '{}': authorized ({}, scopes {}, expires {})", server, settings.grant(),
                saved.credential().scopes(), saved.credential().expiresAt());
        return new AuthAttempt.Retry(saved.credential().header());
    }

    private AuthAttempt refresh(Held current) {
        Credential old = current.credential();
        if (old.tokenEndpoint() == null) {
            throw new OAuthFailure("the stored token has no token endpoint to refresh at");
        }
        OAuthClient saved = old.client();
        if (saved == null || saved.clientId() == null) {
            throw new OAuthFailure("the stored token names no client to refresh it with");
        }
        OAuthClient client = saved.issuer() != null ? saved
                : new OAuthClient(saved.clientId(), settings.clientSecret(), saved.authMethod(), null);
        Map<String, String> grant = new LinkedHashMap<>();
        grant.put("grant_type", "refresh_token");
        grant.put("refresh_token", old.refreshToken());
        if (old.resource() != null) {
            grant.put("resource", old.resource().toString());
        }
        TokenClient.Tokens tokens = new TokenClient(context.http()).request(old.tokenEndpoint(), old.audience(),
                client, assertion, grant, old.scopes(), context.clock().now());
        Credential renewed = new Credential(tokens.accessToken(),
                // a server that does not rotate refresh tokens keeps the old one valid (RFC 6749 section 6)
                tokens.refreshToken() != null ? tokens.refreshToken() : old.refreshToken(), tokens.expiresAt(),
                tokens.scopes(), old.requested(), old.attempts(), old.tokenEndpoint(), old.audience(), old.resource(),
                old.client());
        Held written = slot.save(current, renewed);
        LOG.debug("server '{}': token refreshed (expires {})", server, written.credential().expiresAt());
        return new AuthAttempt.Retry(written.credential().header());
    }

    private boolean expired(Credential credential) {
        return credential.expiresAt() != null && !context.clock().now().isBefore(credential.expiresAt());
    }

    /** Forgets the tokens (keeping the registered client) after the server refused the refresh token. */
    private Held drop(Held current) {
        return slot.save(current, current.credential().withoutTokens());
    }

    /** {@code bin/mcp-tasks auth login}: authorize now, interactively, whether or not a token is held. */
    LoginOutcome login(PrintStream progress, Challenge probed, URI resource) {
        try {
            bind(resource);
            Held current = slot.readableOrReplaceable();
            Discovery.Discovered found = discover(resource, probed);
            List<String> scopes = baseScopes(probed, found);
            if (current != null) {
                // scopes a worker was refused for (or a step-up got earlier) are asked for again
                scopes = Scopes.union(scopes, current.credential().requested());
            }
            AuthAttempt attempt = authorize(current, found, scopes, 1, true, progress);
            if (attempt instanceof AuthAttempt.Refused refused) {
                return new LoginOutcome.Failed(refused.reason());
            }
            Credential credential = slot.held().credential();
            return new LoginOutcome.LoggedIn(server, credential.expiresAt(), credential.scopes());
        } catch (OAuthFailure | TokenSeal.SealException | IllegalArgumentException e) {
            return new LoginOutcome.Failed("server '" + server + "': " + e.getMessage());
        }
    }

    boolean logout() {
        return slot.forget();
    }

    CredentialStatus status() {
        Held current;
        try {
            current = slot.reload();
        } catch (TokenSeal.SealException | OAuthFailure e) {
            throw new IllegalStateException("server '" + server + "': " + e.getMessage(), e);
        }
        if (current == null || !current.credential().hasToken()) {
            return new CredentialStatus(server, false, null, false, List.of());
        }
        Credential credential = current.credential();
        return new CredentialStatus(server, true, credential.expiresAt(), credential.refreshToken() != null,
                credential.scopes());
    }
}
