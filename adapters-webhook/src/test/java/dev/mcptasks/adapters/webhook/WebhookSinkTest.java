package dev.mcptasks.adapters.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookSinkTest {
    /** 32 random bytes in the Standard Webhooks form. */
    private static final String SECRET = "whsec_q3L8Dv0fM2bHcS9kRj1tYx4wPz7nGa6eUo5iNh0Bq1E=";
    private static final String EVENT = "{\"taskId\":\"t-1\",\"status\":\"completed\",\"note\":\"ünïcödé\"}";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T18:00:00Z"));
    private WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = new WebhookReceiver(SECRET, () -> clock.instant().getEpochSecond());
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    @Test
    void postsTheEventSignedSoThatAnIndependentVerifierAcceptsIt() throws Exception {
        WebhookSink sink = sink(settings("/hooks/abc", Duration.ofSeconds(5), BreakerSettings.defaults(),
                Map.of("X-Extra", "extra-value")));

        DeliveryResult result = deliver(sink, notification(3));

        assertThat(result).isEqualTo(new DeliveryResult.Delivered());
        assertThat(receiver.requests()).singleElement().satisfies(request -> {
            assertThat(request.method()).isEqualTo("POST");
            assertThat(request.path()).isEqualTo("/hooks/abc");
            assertThat(request.contentType()).isEqualTo("application/json");
            assertThat(request.id()).isEqualTo("mcp-task:t-1:2:3");
            assertThat(request.timestamp()).isEqualTo(Long.toString(clock.instant().getEpochSecond()));
            assertThat(request.signature()).startsWith("v1,");
            assertThat(request.body()).isEqualTo(EVENT);
            assertThat(request.extraHeader()).isEqualTo("extra-value");
            assertThat(request.verified()).isTrue();
        });
    }

    @Test
    void aReceiverWithAnotherSecretRejectsTheSignature() throws Exception {
        String other = "whsec_" + java.util.Base64.getEncoder().encodeToString(new byte[32]);
        WebhookSink sink = sink(new WebhookSettings(receiver.url("/"), WebhookSecret.parse(other),
                Duration.ofSeconds(5), BreakerSettings.defaults(), Map.of()));

        deliver(sink, notification(1));

        assertThat(receiver.requests()).singleElement().satisfies(r -> assertThat(r.verified()).isFalse());
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 202, 204})
    void anySuccessStatusIsDelivered(int status) throws Exception {
        receiver.answer(status, status == 204 ? "" : "ok");

        assertThat(deliver(sink(defaults()), notification(1))).isEqualTo(new DeliveryResult.Delivered());
    }

    @Test
    void aConflictIsBusy() throws Exception {
        receiver.answer(409, "already processing this key");

        DeliveryResult result = deliver(sink(defaults()), notification(1));

        assertThat(result).isEqualTo(new DeliveryResult.Busy("HTTP 409 from " + endpoint()
                + ": already processing this key"));
    }

    @ParameterizedTest
    @ValueSource(ints = {404, 410})
    void notFoundAndGoneAreGone(int status) throws Exception {
        receiver.answer(status, "");

        DeliveryResult result = deliver(sink(defaults()), notification(1));

        assertThat(result).isEqualTo(new DeliveryResult.Gone("HTTP " + status + " from " + endpoint()));
    }

    @ParameterizedTest
    @ValueSource(ints = {500, 503, 400, 401, 429, 302})
    void everyOtherStatusIsACountedFailureNamingTheStatusAndBody(int status) throws Exception {
        receiver.answer(status, "went\nwrong");

        DeliveryResult result = deliver(sink(defaults()), notification(1));

        assertThat(result).isEqualTo(new DeliveryResult.Failed("HTTP " + status + " from " + endpoint()
                + ": went wrong"));
        assertThat(receiver.calls()).as("a redirect is not followed").isEqualTo(1);
    }

    @Test
    void aLongAnswerIsCutToOneLineOfAtMost200Characters() throws Exception {
        receiver.answer(500, "line one\r\n" + "x".repeat(5000));

        DeliveryResult result = deliver(sink(defaults()), notification(1));

        String prefix = "HTTP 500 from " + endpoint() + ": ";
        assertThat(result).isInstanceOfSatisfying(DeliveryResult.Failed.class, failed -> {
            assertThat(failed.detail()).startsWith(prefix + "line one xxx").doesNotContain("\n", "\r")
                    .endsWith("…");
            assertThat(failed.detail().length()).isEqualTo(prefix.length() + Answers.MAX_BODY_CHARS + 1);
        });
    }

    @Test
    void theDetailNamesTheEndpointByItsOriginOnlyNeverThePath() throws Exception {
        receiver.answer(500, "");
        WebhookSink sink = sink(settings("/services/T000/B000/token-in-path", Duration.ofSeconds(5),
                BreakerSettings.defaults(), Map.of()));

        DeliveryResult result = deliver(sink, notification(1));

        assertThat(result).isEqualTo(new DeliveryResult.Failed("HTTP 500 from " + endpoint()));
    }

    @Test
    void aReceiverThatDoesNotAnswerInTimeIsACountedFailure() throws Exception {
        receiver.hang();
        WebhookSink sink = sink(settings("/", Duration.ofMillis(300), BreakerSettings.defaults(), Map.of()));

        CompletableFuture<DeliveryResult> delivery = sink.deliver(notification(1));

        assertThat(receiver.arrived().await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(delivery.get(5, TimeUnit.SECONDS)).isEqualTo(new DeliveryResult.Failed(
                "no answer from " + endpoint() + " within 300 ms (timed out)"));
    }

    @Test
    void theTimeoutAlsoCoversAnAnswerWhoseBodyNeverEnds() throws Exception {
        receiver.answer(200, "a body that stops halfway");
        receiver.hangBody();
        WebhookSink sink = sink(settings("/", Duration.ofMillis(300), BreakerSettings.defaults(), Map.of()));

        CompletableFuture<DeliveryResult> delivery = sink.deliver(notification(1));

        assertThat(receiver.arrived().await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(delivery.get(5, TimeUnit.SECONDS)).isEqualTo(new DeliveryResult.Failed(
                "no answer from " + endpoint() + " within 300 ms (timed out)"));
    }

    @Test
    void aRefusedConnectionIsACountedFailure() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        WebhookSink sink = sink(new WebhookSettings(URI.create("http://127.0.0.1:" + closedPort + "/hook"),
                WebhookSecret.parse(SECRET), Duration.ofSeconds(5), BreakerSettings.defaults(), Map.of()));

        DeliveryResult result = deliver(sink, notification(1));

        assertThat(result).isInstanceOfSatisfying(DeliveryResult.Failed.class, failed ->
                assertThat(failed.detail()).startsWith("connecting to http://127.0.0.1:" + closedPort + " failed: ")
                        .doesNotContain("\n"));
    }

    @Test
    void theBreakerOpensAtTheThresholdAndThenAnswersBusyWithoutACall() throws Exception {
        receiver.answer(500, "down");
        WebhookSink sink = sink(settings("/", Duration.ofSeconds(5),
                new BreakerSettings(50, 4, Duration.ofSeconds(60)), Map.of()));

        for (int i = 1; i <= 3; i++) {
            assertThat(deliver(sink, notification(i))).isInstanceOf(DeliveryResult.Failed.class);
            assertThat(sink.breakerState()).as("below the minimum number of calls").isEqualTo(
                    CircuitBreaker.State.CLOSED);
        }
        assertThat(deliver(sink, notification(4))).isInstanceOf(DeliveryResult.Failed.class);
        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);

        DeliveryResult refused = deliver(sink, notification(5));

        // Busy: the dispatcher retries it without counting an attempt, so an open breaker never dead-letters
        assertThat(refused).isEqualTo(new DeliveryResult.Busy("circuit open for " + endpoint()
                + ", next try after " + clock.instant().plusSeconds(60)));
        assertThat(receiver.calls()).isEqualTo(4);
    }

    @Test
    void busyAndGoneAnswersDoNotCountAsBreakerFailures() throws Exception {
        WebhookSink sink = sink(settings("/", Duration.ofSeconds(5),
                new BreakerSettings(50, 2, Duration.ofSeconds(60)), Map.of()));

        receiver.answer(409, "");
        for (int i = 1; i <= 3; i++) {
            assertThat(deliver(sink, notification(i))).isInstanceOf(DeliveryResult.Busy.class);
        }
        receiver.answer(410, "");
        for (int i = 4; i <= 6; i++) {
            assertThat(deliver(sink, notification(i))).isInstanceOf(DeliveryResult.Gone.class);
        }

        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(receiver.calls()).isEqualTo(6);
    }

    @Test
    void aTimeoutCountsAsABreakerFailure() throws Exception {
        receiver.hang();
        WebhookSink sink = sink(settings("/", Duration.ofMillis(300),
                new BreakerSettings(100, 1, Duration.ofSeconds(60)), Map.of()));

        assertThat(deliver(sink, notification(1))).isInstanceOf(DeliveryResult.Failed.class);

        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void afterTheOpenWaitOneTrialGoesThroughAndASuccessClosesTheBreaker() throws Exception {
        WebhookSink sink = openBreaker();
        clock.advance(Duration.ofSeconds(60));
        assertThat(deliver(sink, notification(2))).as("the trial comes strictly after the wait")
                .isInstanceOf(DeliveryResult.Busy.class);
        assertThat(receiver.calls()).isEqualTo(1);

        clock.advance(Duration.ofMillis(1));
        receiver.answer(200, "");

        assertThat(deliver(sink, notification(3))).isEqualTo(new DeliveryResult.Delivered());
        assertThat(receiver.calls()).isEqualTo(2);
        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(deliver(sink, notification(4))).isEqualTo(new DeliveryResult.Delivered());
    }

    @Test
    void aFailedTrialOpensTheBreakerAgain() throws Exception {
        WebhookSink sink = openBreaker();
        clock.advance(Duration.ofSeconds(60).plusMillis(1));

        assertThat(deliver(sink, notification(2))).isInstanceOf(DeliveryResult.Failed.class);

        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(deliver(sink, notification(3))).isEqualTo(new DeliveryResult.Busy("circuit open for "
                + endpoint() + ", next try after " + clock.instant().plusSeconds(60)));
        assertThat(receiver.calls()).isEqualTo(2);
    }

    @Test
    void whileTheTrialIsInFlightOtherDeliveriesWaitWithoutACall() throws Exception {
        WebhookSink sink = openBreaker();
        clock.advance(Duration.ofSeconds(60).plusMillis(1));
        receiver.answer(200, "");
        receiver.hang();

        CompletableFuture<DeliveryResult> trial = sink.deliver(notification(2));
        assertThat(receiver.arrived().await(5, TimeUnit.SECONDS)).isTrue();

        assertThat(deliver(sink, notification(3))).isEqualTo(new DeliveryResult.Busy("circuit half-open for "
                + endpoint() + ", a trial delivery is in flight"));
        assertThat(receiver.calls()).isEqualTo(2);

        receiver.release();
        assertThat(trial.get(5, TimeUnit.SECONDS)).isEqualTo(new DeliveryResult.Delivered());
        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aDeliveryTheCallerCancelsGivesItsTrialBackWithoutAVerdict() throws Exception {
        WebhookSink sink = openBreaker();
        clock.advance(Duration.ofSeconds(60).plusMillis(1));
        receiver.hang();

        CompletableFuture<DeliveryResult> trial = sink.deliver(notification(2));
        assertThat(receiver.arrived().await(5, TimeUnit.SECONDS)).isTrue();
        trial.cancel(true);

        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
        receiver.release();
        receiver.answer(200, "");
        assertThat(deliver(sink, notification(3))).as("the trial's permission was given back")
                .isEqualTo(new DeliveryResult.Delivered());
        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void theSecretAppearsInNoDetailEvenWhenTheReceiverEchoesIt() throws Exception {
        receiver.answer(500, "expected a signature made with " + SECRET + " or "
                + SECRET.substring("whsec_".length()));

        DeliveryResult result = deliver(sink(defaults()), notification(1));

        assertThat(result).isInstanceOfSatisfying(DeliveryResult.Failed.class, failed -> assertThat(failed.detail())
                .doesNotContain(SECRET.substring("whsec_".length())).contains("(secret)"));
        assertThat(defaults().toString()).doesNotContain(SECRET.substring("whsec_".length()));
        assertThat(sink(defaults()).toString()).doesNotContain(SECRET.substring("whsec_".length()));
    }

    /** A sink whose breaker opened after one failed call (100 % of 1), open for 60 s. */
    private WebhookSink openBreaker() throws Exception {
        receiver.answer(500, "");
        WebhookSink sink = sink(settings("/", Duration.ofSeconds(5),
                new BreakerSettings(100, 1, Duration.ofSeconds(60)), Map.of()));
        assertThat(deliver(sink, notification(1))).isInstanceOf(DeliveryResult.Failed.class);
        assertThat(sink.breakerState()).isEqualTo(CircuitBreaker.State.OPEN);
        return sink;
    }

    private WebhookSink sink(WebhookSettings settings) {
        return new WebhookSink(settings, clock);
    }

    private WebhookSettings defaults() {
        return settings("/", Duration.ofSeconds(5), BreakerSettings.defaults(), Map.of());
    }

    private WebhookSettings settings(String path, Duration timeout, BreakerSettings breaker,
            Map<String, String> headers) {
        return new WebhookSettings(receiver.url(path), WebhookSecret.parse(SECRET), timeout, breaker, headers);
    }

    private String endpoint() {
        return "http://" + receiver.url("/").getRawAuthority();
    }

    private static Notification notification(int attempt) {
        return new Notification(new TaskId("t-1"), 2, attempt, "mcp-task:t-1:2:" + attempt, EVENT);
    }

    private static DeliveryResult deliver(WebhookSink sink, Notification notification) throws Exception {
        return sink.deliver(notification).get(10, TimeUnit.SECONDS);
    }
}
