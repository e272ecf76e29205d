package dev.mcptasks.webhook;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.notification.NotificationSink;
import java.time.Clock;
import java.util.Objects;

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
    }

    @Provides
    @Singleton
    WebhookSink sink() {
        return new WebhookSink(settings, clock);
    }
}
