package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.testkit.contract.NotificationSinkContract;

/** The sink contract against {@link LogNotificationSink}, the sink used when no other is configured. */
class LogNotificationSinkContractTest extends NotificationSinkContract {
    @Override
    protected NotificationSink createSink() {
        return new LogNotificationSink();
    }
}
