package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.metrics.Metrics;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP gateway's gauges: sessions open, and SSE streams open (a GET stream, an answer streamed to a POST) from
 * their head until their connection closes, whichever side closed it.
 */
class GatewayGaugesTest {
    private static final String SESSIONS = "gateway_sessions_open";
    private static final String STREAMS = "gateway_streams_open";

    private final Map<String, DoubleSupplier> gauges = new ConcurrentHashMap<>();
    private final Metrics metrics = new Metrics() {
        @Override
        public void gauge(String name, String description, DoubleSupplier value, String... labels) {
            gauges.put(name, value);
        }
    };
    private GatewayFixture fixture;

    @AfterEach
    void stop() {
        fixture.close();
    }

    private double gauge(String name) {
        return gauges.get(name).getAsDouble();
    }

    /** The server sees a connection close a moment after the client or it closed it. */
    private void awaitGauge(String name, double value) {
        Eventually.until(name + " = " + value + " (is " + gauge(name) + ")", Duration.ofSeconds(10),
                () -> gauge(name) == value, () -> { });
    }

    @Test
    void sessionsAndStreamsAreCountedWhileOpen() throws Exception {
        fixture = new GatewayFixture(GatewaySettings.defaults().withStreaming(new GatewaySettings.Streaming(
                Duration.ZERO, Duration.ZERO, Duration.ofMillis(750), Duration.ZERO)), metrics);
        assertThat(gauge(SESSIONS)).isZero();
        assertThat(gauge(STREAMS)).isZero();

        String session = fixture.initialize();
        assertThat(gauge(SESSIONS)).isEqualTo(1);
        assertThat(gauge(STREAMS)).as("initialize is answered as JSON").isZero();

        try (WireClient.Response listening = fixture.client.get().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(listening.nextEvent().data()).as("the GET stream's priming event").isEmpty();
            assertThat(gauge(STREAMS)).isEqualTo(1);

            CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
            try (WireClient.Response answer = fixture.request(session, 2, "tools/call").send()) {
                assertThat(answer.nextEvent().data()).as("the answer stream's priming event").isEmpty();
                assertThat(gauge(STREAMS)).isEqualTo(2);

                FrontRequest call = fixture.dispatcher.next("tools/call");
                gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
                assertThat(answer.nextMessage().json().path("id").asInt()).isEqualTo(2);
                assertThat(answer.nextEvent()).as("the gateway ended the stream").isNull();
                awaitGauge(STREAMS, 1);
            }
        }
        awaitGauge(STREAMS, 0);
        assertThat(gauge(SESSIONS)).as("a closed stream leaves its session open").isEqualTo(1);

        try (WireClient.Response delete = fixture.client.delete().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(delete.status()).isEqualTo(200);
        }
        assertThat(gauge(SESSIONS)).isZero();
    }
}
