package dev.mcptasks.testkit.driver;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.testkit.contract.TaskDriverContract;

/** The driver contract against {@link InstantDriver}, which finishes every task at submit. */
class InstantDriverContractTest extends TaskDriverContract {
    @Override
    protected TaskDriver createDriver() {
        return new InstantDriver();
    }

    @Override
    protected SubmitCall acceptedCall(TaskId id) {
        return new SubmitCall(id, "alpha", "long_job", "{}", null);
    }
}
