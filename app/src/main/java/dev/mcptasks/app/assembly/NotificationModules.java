package dev.mcptasks.app.assembly;

import com.google.inject.Module;
import dev.mcptasks.adapters.webhook.WebhookModule;
import dev.mcptasks.app.config.AppConfig;
import java.util.Optional;

/**
 * Chooses the notification sink module of a worker from the configuration: the webhook when
 * {@code notifications.webhook} is set. Without it nothing is installed and the worker logs attention events (the
 * default of {@link WorkerModule}).
 */
public final class NotificationModules {
    private NotificationModules() {}

    /** The webhook module, or empty when no webhook is configured. */
    public static Optional<Module> forConfig(AppConfig config) {
        return config.webhookSettings().map(WebhookModule::new);
    }
}
