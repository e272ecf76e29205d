package dev.mcptasks.adapters.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.notification.DeliveryResult;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class EndpointBreakerTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T18:00:00Z"));

    @Test
    void aSlowDeliveryWithinTheTimeoutNeverOpensTheBreaker() {
        // Resilience4j's default calls anything over 60 s slow and opens at 100 % slow calls
        EndpointBreaker breaker = new EndpointBreaker("https://hooks.example.com",
                new BreakerSettings(50, 1, Duration.ofSeconds(60)), Duration.ofSeconds(120), clock);

        assertThat(breaker.tryAcquire()).isTrue();
        breaker.record(new DeliveryResult.Delivered(), breaker.start() - TimeUnit.SECONDS.toNanos(100));

        assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    @Test
    void aPermissionGivenBackLeavesTheCountsAlone() {
        EndpointBreaker breaker = new EndpointBreaker("https://hooks.example.com",
                new BreakerSettings(50, 2, Duration.ofSeconds(60)), Duration.ofSeconds(5), clock);

        for (int i = 0; i < 5; i++) {
            assertThat(breaker.tryAcquire()).isTrue();
            breaker.release();
        }
        assertThat(breaker.tryAcquire()).isTrue();
        breaker.record(new DeliveryResult.Failed("HTTP 500"), breaker.start());

        assertThat(breaker.state()).as("one failure is below the minimum of 2 answered deliveries")
                .isEqualTo(CircuitBreaker.State.CLOSED);
    }
}
