package dev.mcptasks.adapters.webhook;

import dev.mcptasks.adapters.httpsupport.BoundedBody;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Delivers each notification as one POST of its frozen event to a webhook, signed the Standard Webhooks way
 * ({@code webhook-id} = the notification's idempotency key, {@code webhook-timestamp} = unix seconds of the given
 * clock, {@code webhook-signature}), and decides that one attempt's {@link DeliveryResult}; retries, backoff,
 * attempt counting and dead letters are the dispatcher's. Nothing blocks: the JDK client's {@code sendAsync}, a
 * deadline per request covering the whole answer, and the endpoint's circuit breaker, which while open answers
 * {@code Busy} without a network call.
 */
public final class WebhookSink implements NotificationSink {
    /**
     * How much of a receiver's answer is read: only a prefix is ever reported, and a receiver that answers with
     * megabytes must not make the sink hold them.
     */
    static final int ANSWER_PREFIX_BYTES = 1024;

    private final WebhookSettings settings;
    private final Clock clock;
    private final HttpClient client;
    private final WebhookSignature signature;
    private final EndpointBreaker breaker;
    private final Answers answers;

    /**
     * @param clock the time of {@code webhook-timestamp} and of the circuit breaker's open wait
     */
    public WebhookSink(WebhookSettings settings, Clock clock) {
        this(settings, clock, HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                // a redirect would carry a signed event to an address nobody configured
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.timeout())
                .build());
    }

    WebhookSink(WebhookSettings settings, Clock clock, HttpClient client) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.client = Objects.requireNonNull(client, "client");
        this.signature = new WebhookSignature(settings.secret());
        this.breaker = new EndpointBreaker(settings.endpoint(), settings.breaker(), settings.timeout(), clock);
        this.answers = new Answers(settings);
    }

    @Override
    public CompletableFuture<DeliveryResult> deliver(Notification notification) {
        if (!breaker.tryAcquire()) {
            return CompletableFuture.completedFuture(breaker.refusal());
        }
        long started = breaker.start();
        HttpRequest request;
        try {
            request = request(notification);
        } catch (RuntimeException e) {
            // an idempotency key that is no header value, say: nothing about the endpoint
            breaker.release();
            return CompletableFuture.completedFuture(answers.unsendable(e));
        }
        CompletableFuture<HttpResponse<String>> exchange;
        try {
            exchange = client.sendAsync(request, BoundedBody.truncatedAt(ANSWER_PREFIX_BYTES));
        } catch (RuntimeException e) {
            breaker.release();
            return CompletableFuture.completedFuture(answers.unsendable(e));
        }
        CompletableFuture<DeliveryResult> result = new CompletableFuture<>();
        // one deadline for the whole exchange (the JDK client's request timeout would stop at the answer's headers
        // and leave a body that never ends unbounded). Cancelling the exchange aborts it; the flag tells that
        // abort from one the caller asked for.
        AtomicBoolean timedOut = new AtomicBoolean();
        CompletableFuture<Void> deadline = new CompletableFuture<>();
        deadline.orTimeout(settings.timeout().toMillis(), TimeUnit.MILLISECONDS).whenComplete((ignored, late) -> {
            if (late != null) {
                timedOut.set(true);
                exchange.cancel(true);
            }
        });
        exchange.whenComplete((response, error) -> {
            deadline.complete(null); // stops the deadline's timer
            if (error == null) {
                settle(result, answers.answered(response.statusCode(), response.body()), started);
            } else if (timedOut.get()) {
                settle(result, answers.timedOut(settings.timeout()), started);
            } else if (result.isCancelled() || Answers.unwrap(error) instanceof CancellationException) {
                breaker.release(); // abandoned by the caller (its own timeout, a shutdown): no verdict
            } else {
                settle(result, answers.failed(error), started);
            }
        });
        // the dispatcher cancels a delivery it stopped waiting for: the request is aborted, not left to run
        result.whenComplete((ignored, error) -> {
            if (result.isCancelled()) {
                exchange.cancel(true);
            }
        });
        return result;
    }

    private void settle(CompletableFuture<DeliveryResult> result, DeliveryResult outcome, long started) {
        breaker.record(outcome, started);
        result.complete(outcome);
    }

    private HttpRequest request(Notification notification) {
        byte[] body = notification.eventJson().getBytes(StandardCharsets.UTF_8);
        String id = notification.idempotencyKey();
        long timestamp = clock.instant().getEpochSecond();
        HttpRequest.Builder builder = HttpRequest.newBuilder(settings.url())
                .header("Content-Type", "application/json")
                .header("User-Agent", "mcp-tasks-webhook")
                .header("webhook-id", id)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", signature.sign(id, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        settings.headers().forEach(builder::header);
        return builder.build();
    }

    /** The endpoint's breaker state (tests, diagnostics). */
    CircuitBreaker.State breakerState() {
        return breaker.state();
    }

    @Override
    public String toString() {
        return "WebhookSink[" + settings.endpoint() + "]";
    }
}
