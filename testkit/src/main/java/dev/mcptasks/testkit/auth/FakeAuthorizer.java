package dev.mcptasks.testkit.auth;

import dev.mcptasks.ports.auth.AuthAttempt;
import dev.mcptasks.ports.auth.AuthChallenge;
import dev.mcptasks.ports.auth.HttpAuthorizer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An {@link HttpAuthorizer} for transport tests: hands out {@code Bearer t1}, {@code Bearer t2}, ... one per challenge (and makes it the
 * current header), or answers as {@link #answers} says; records every challenge with the thread it came on.
 */
public final class FakeAuthorizer implements HttpAuthorizer {
    /** One challenge as the authorizer saw it. */
    public record Seen(AuthChallenge challenge, String thread) {}

    public final List<Seen> challenges = new CopyOnWriteArrayList<>();
    private final AtomicInteger issued = new AtomicInteger();
    private volatile String current;
    /** How a challenge is answered; by default a new token, completed at once. */
    public volatile Function<AuthChallenge, CompletableFuture<AuthAttempt>> answers =
            challenge -> CompletableFuture.completedFuture(new AuthAttempt.Retry(issue()));

    public FakeAuthorizer(String current) {
        this.current = current;
    }

    /** A new token, which becomes the current header. */
    public String issue() {
        String token = "Bearer t" + issued.incrementAndGet();
        current = token;
        return token;
    }

    /** A refresh done elsewhere (another worker, the background): the next request should carry it. */
    public void refresh(String token) {
        current = token;
    }

    /** Refuses every challenge with {@code reason}. */
    public FakeAuthorizer refusing(String reason) {
        answers = challenge -> CompletableFuture.completedFuture(new AuthAttempt.Refused(reason));
        return this;
    }

    @Override
    public String authorization() {
        return current;
    }

    @Override
    public CompletableFuture<AuthAttempt> challenged(AuthChallenge challenge) {
        challenges.add(new Seen(challenge, Thread.currentThread().getName()));
        return answers.apply(challenge);
    }

    public List<AuthChallenge> seen() {
        return challenges.stream().map(Seen::challenge).toList();
    }
}
