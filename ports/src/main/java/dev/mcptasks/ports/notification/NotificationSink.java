package dev.mcptasks.ports.notification;

import java.util.concurrent.CompletableFuture;

/** Where attention events go (an HTTP webhook, the log). */
public interface NotificationSink {
    CompletableFuture<DeliveryResult> deliver(Notification notification);
}
