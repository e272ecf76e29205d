package dev.mcptasks.examples;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.testkit.contract.TaskDriverContract;

/** The driver contract against {@link DigestDriver}, which finishes its tasks at submit and keeps none. */
class DigestDriverContractTest extends TaskDriverContract {
    @Override
    protected TaskDriver createDriver() {
        return new DigestDriver();
    }

    @Override
    protected SubmitCall acceptedCall(TaskId id) {
        return new SubmitCall(id, "digests", "sha256", "{\"text\":\"hello\"}", null);
    }

    @Override
    protected SubmitCall refusedCall(TaskId id) {
        return new SubmitCall(id, "digests", "md5", "{\"text\":\"hello\"}", null);
    }
}
