package dev.mcptasks.adapters.webhook;

import dev.mcptasks.ports.notification.DeliveryResult;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Resilience4j circuit breaker of one webhook endpoint. A delivery asks for a permission before it sends and
 * then reports exactly one of: its result ({@link #record}) or that it was abandoned ({@link #release}). Only
 * counted failures ({@link DeliveryResult.Failed}: 5xx, other statuses, timeouts, connection failures) are breaker
 * failures; {@code Busy} and {@code Gone} are answers of a working receiver about one event, so they release the
 * permission without counting, as does a delivery the caller cancelled (that says nothing about the endpoint).
 * While open the breaker refuses for {@link BreakerSettings#openWait()} on the given clock, then lets one trial
 * through.
 */
final class EndpointBreaker {
    private static final Logger LOG = LoggerFactory.getLogger(EndpointBreaker.class);

    private final CircuitBreaker breaker;
    private final String endpoint;
    private final Clock clock;
    /** When the current open state ends; written on the transition to open, read by refusals. */
    private volatile Instant nextTrial = Instant.EPOCH;

    /** @param timeout the endpoint's delivery timeout: the longest a delivery that counts as answered can take */
    EndpointBreaker(String endpoint, BreakerSettings settings, Duration timeout, Clock clock) {
        this.endpoint = endpoint;
        this.clock = clock;
        CircuitBreakerConfig config = CircuitBreakerConfig.custom()
                .slidingWindow(settings.minimumCalls(), settings.minimumCalls(),
                        CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .failureRateThreshold(settings.failureRatePercent())
                .waitDurationInOpenState(settings.openWait())
                .permittedNumberOfCallsInHalfOpenState(1)
                // slowness is the timeout's business (a delivery slower than it already failed): no delivery
                // that ends within it may open the breaker as a "slow call"
                .slowCallDurationThreshold(timeout.multipliedBy(2))
                .clock(clock)
                .build();
        this.breaker = CircuitBreaker.of(endpoint, config);
        breaker.getEventPublisher().onStateTransition(event -> {
            CircuitBreaker.State to = event.getStateTransition().getToState();
            if (to == CircuitBreaker.State.OPEN) {
                // the breaker's own open wait starts now on the same clock; this is only for the refusal's text
                nextTrial = clock.instant().plus(settings.openWait());
                LOG.warn("webhook {}: circuit open, deliveries wait until {}", endpoint, nextTrial);
            } else {
                LOG.info("webhook {}: circuit {}", endpoint, to);
            }
        });
    }

    /** Whether a delivery may go now; a true answer must be followed by {@link #record} or {@link #release}. */
    boolean tryAcquire() {
        return breaker.tryAcquirePermission();
    }

    /**
     * The result of a refused delivery: {@code Busy}, the one form the dispatcher retries without counting an
     * attempt, so an open breaker delays deliveries and never dead-letters them.
     */
    DeliveryResult.Busy refusal() {
        String state = switch (breaker.getState()) {
            case OPEN -> "circuit open for " + endpoint + ", next try after " + nextTrial;
            case HALF_OPEN -> "circuit half-open for " + endpoint + ", a trial delivery is in flight";
            default -> "circuit " + breaker.getState() + " for " + endpoint;
        };
        return new DeliveryResult.Busy(state);
    }

    /** A reading to measure a delivery's duration with (the breaker's own time line). */
    long start() {
        return breaker.getCurrentTimestamp();
    }

    /** Reports the result of a permitted delivery that began at {@code started}. */
    void record(DeliveryResult result, long started) {
        long duration = Math.max(0, breaker.getCurrentTimestamp() - started);
        TimeUnit unit = breaker.getTimestampUnit();
        if (result instanceof DeliveryResult.Delivered) {
            breaker.onSuccess(duration, unit);
        } else if (result instanceof DeliveryResult.Failed failed) {
            breaker.onError(duration, unit, new WebhookFailure(failed.detail()));
        } else {
            breaker.releasePermission();
        }
    }

    /** Gives back the permission of a delivery that ended without a result about the endpoint. */
    void release() {
        breaker.releasePermission();
    }

    CircuitBreaker.State state() {
        return breaker.getState();
    }

    /** What the breaker records as the error of a failed delivery (no stack trace: it is never thrown). */
    static final class WebhookFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WebhookFailure(String detail) {
            super(detail, null, false, false);
        }
    }
}
