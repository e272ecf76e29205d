package dev.mcptasks.adapters.webhook;

import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.testkit.contract.NotificationSinkContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The sink contract against {@link WebhookSink} posting to a local receiver that answers 200 to every event. */
class WebhookSinkContractTest extends NotificationSinkContract {
    private static final String SECRET = "whsec_q3L8Dv0fM2bHcS9kRj1tYx4wPz7nGa6eUo5iNh0Bq1E=";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-03T18:00:00Z"));
    private WebhookReceiver receiver;

    @Override
    protected NotificationSink createSink() {
        try {
            receiver = new WebhookReceiver(SECRET, () -> clock.instant().getEpochSecond());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new WebhookSink(new WebhookSettings(receiver.url("/hooks"), WebhookSecret.parse(SECRET),
                Duration.ofSeconds(5), BreakerSettings.defaults(), Map.of()), clock);
    }

    @Override
    protected void closeSink() {
        receiver.close();
    }
}
