package dev.mcptasks.testkit.notification;

import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.testkit.contract.NotificationSinkContract;

/** The sink contract against {@link ScriptedSink} with an empty script (every delivery delivered). */
class ScriptedSinkContractTest extends NotificationSinkContract {
    @Override
    protected NotificationSink createSink() {
        return new ScriptedSink();
    }
}
