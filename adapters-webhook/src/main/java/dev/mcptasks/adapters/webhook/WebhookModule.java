package dev.mcptasks.adapters.webhook;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.metrics.Metrics;
import dev.mcptasks.ports.notification.NotificationSink;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Binds {@link NotificationSink} to a {@link WebhookSink} for the given endpoint. The binding goes through an
 * {@link OptionalBinder}'s {@code setBinding}, so it overrides a default the application declares (the log sink,
 * say) and works as well where no default exists.
 */
public final class WebhookModule extends AbstractModule {
    private final WebhookSettings settings;
    private final Clock clock;

    public WebhookModule(WebhookSettings settings) {
        this(settings, Clock.systemUTC());
    }

    /** @param clock the time of {@code webhook-timestamp} and of the breaker's open wait */
    public WebhookModule(WebhookSettings settings, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    protected void configure() {
        OptionalBinder.newOptionalBinder(binder(), NotificationSink.class).setBinding().to(WebhookSink.class);
        // declared here too, so the module works where the application records no metrics
        OptionalBinder.newOptionalBinder(binder(), Metrics.class);
    }

    @Provides
    @Singleton
    WebhookSink sink(Optional<Metrics> metrics) {
        WebhookSink sink = new WebhookSink(settings, clock);
        for (String state : List.of("closed", "open", "half_open")) {
            metrics.orElse(Metrics.NONE).gauge("webhook_breaker_state",
                    "1 for the state the webhook endpoint's circuit breaker is in, else 0",
                    () -> sink.breakerState().name().toLowerCase(Locale.ROOT).equals(state) ? 1 : 0, "state", state);
        }
        return sink;
    }
}
