package dev.mcptasks.adapters.oauth;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import dev.mcptasks.testkit.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A server's authorizers wired to a fake authorization server, a memory store and a manual clock. */
final class OAuthFixture implements AutoCloseable {
    static final byte[] KEY = new byte[32];

    static {
        Arrays.fill(KEY, (byte) 7);
    }

    final ManualClock clock = new ManualClock();
    final MemoryCredentialStore store;
    final ExecutorService executor = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "oauth-test");
        thread.setDaemon(true);
        return thread;
    });
    final AtomicInteger browserOpens = new AtomicInteger();
    /** The secrets the authorizers made known (every token they obtained or read). */
    final java.util.List<String> remembered = new java.util.concurrent.CopyOnWriteArrayList<>();
    final dev.mcptasks.ports.secret.SecretRedactor secrets = new dev.mcptasks.ports.secret.SecretRedactor() {
        @Override
        public void remember(String secret) {
            if (secret != null) {
                remembered.add(secret);
            }
        }

        @Override
        public String redact(String text) {
            return text;
        }
    };
    final OAuthAuthorizers authorizers;
    /** What the test "browser" does with a url; by default it follows the redirects, like curl -L. */
    volatile Browser browser = OAuthFixture::follow;

    OAuthFixture(Map<String, OAuthSettings> settings) {
        this(settings, new MemoryCredentialStore(), KEY, Duration.ofSeconds(10));
    }

    OAuthFixture(Map<String, OAuthSettings> settings, MemoryCredentialStore store, byte[] key,
            Duration redirectTimeout) {
        this(settings, store, key, redirectTimeout, Duration.ofSeconds(10));
    }

    OAuthFixture(Map<String, OAuthSettings> settings, MemoryCredentialStore store, byte[] key,
            Duration redirectTimeout, Duration httpTimeout) {
        this.store = store;
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        OAuthContext context = new OAuthContext(new TokenSeal(key), store, clock,
                new OAuthHttp(client, httpTimeout), executor, command -> url -> {
                    browserOpens.incrementAndGet();
                    browser.open(url);
                }, redirectTimeout, Duration.ofSeconds(60), secrets);
        this.authorizers = new OAuthAuthorizers(settings, context);
    }

    static void follow(URI url) {
        try {
            HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build()
                    .send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    HttpAuthorizer authorizer(String server) {
        return authorizers.authorizerFor(server);
    }

    static AuthAttempt await(java.util.concurrent.CompletableFuture<AuthAttempt> attempt) throws Exception {
        return attempt.get(20, TimeUnit.SECONDS);
    }

    static AuthChallenge unauthorized(URI resource, String header, String sent) {
        return new AuthChallenge(resource, 401, header, sent);
    }

    static AuthChallenge forbidden(URI resource, String header, String sent) {
        return new AuthChallenge(resource, 403, header, sent);
    }

    static OAuthSettings clientCredentials(String method) {
        return new OAuthSettings("client_credentials", "cc-client", "cc secret:1", method, null, null, null, null,
                null, 0, null);
    }

    static OAuthSettings authorizationCode(String clientId, String secret, URI cimd, String browser) {
        return new OAuthSettings("authorization_code", clientId, secret, null, null, null, List.of(), cimd, null, 0,
                browser);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
