package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers attention events to the log (logger {@code dev.mcptasks.notifications}, under {@code dev.mcptasks} so the
 * shipped configuration prints it at INFO); every delivery succeeds.
 */
public final class LogNotificationSink implements NotificationSink {
    private static final Logger EVENTS = LoggerFactory.getLogger("dev.mcptasks.notifications");

    @Override
    public CompletableFuture<DeliveryResult> deliver(Notification notification) {
        EVENTS.info("{} {}", notification.idempotencyKey(), notification.eventJson());
        return CompletableFuture.completedFuture(new DeliveryResult.Delivered());
    }
}
