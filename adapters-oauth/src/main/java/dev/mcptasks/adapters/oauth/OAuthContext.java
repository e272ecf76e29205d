package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * What every server's authorizer shares.
 *
 * @param executor runs the flows (network and store I/O), never a transport's thread
 * @param browsers opens urls with a command
 * @param redirectTimeout how long a browser flow waits for the redirect
 * @param refreshSkew how long before expiry a token is refreshed
 */
record OAuthContext(TokenSeal seal, CredentialStore store, Clock clock, OAuthHttp http, Executor executor,
        Function<String, Browser> browsers, Duration redirectTimeout, Duration refreshSkew, SecretRedactor secrets) {
}
