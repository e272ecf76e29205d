package dev.mcptasks.examples;

import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.testkit.contract.NotificationSinkContract;

/** The sink contract against {@link CompletionCollector}. */
class CompletionCollectorContractTest extends NotificationSinkContract {
    @Override
    protected NotificationSink createSink() {
        return new CompletionCollector();
    }
}
