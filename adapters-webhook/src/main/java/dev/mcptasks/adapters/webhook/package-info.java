/** A {@link dev.mcptasks.ports.notification.NotificationSink} that POSTs each frozen event to a webhook. */
package dev.mcptasks.adapters.webhook;
