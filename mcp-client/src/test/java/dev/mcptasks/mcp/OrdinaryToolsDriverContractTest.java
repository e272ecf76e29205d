package dev.mcptasks.mcp;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.mcp.ReferenceHarness.Via;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.contract.TaskDriverContract;
import java.util.Map;

/** The driver contract against {@link OrdinaryToolsDriver} and the reference server's job tools over HTTP. */
class OrdinaryToolsDriverContractTest extends TaskDriverContract {
    private static final OrdinaryToolset JOBS = new OrdinaryToolset("submit_job", "job_status", "cancel_job");

    private ReferenceHarness harness;

    @Override
    protected TaskDriver createDriver() {
        harness = new ReferenceHarness(Via.HTTP, ReferenceServerOptions.defaults(), false);
        return new OrdinaryToolsDriver(harness.sessions, Map.of(ReferenceHarness.SERVER, JOBS));
    }

    @Override
    protected void closeDriver() {
        harness.close();
    }

    /** A job that runs for the whole test, so it can be read and cancelled while working. */
    @Override
    protected SubmitCall acceptedCall(TaskId id) {
        return new SubmitCall(id, ReferenceHarness.SERVER, "anything", "{\"durationMs\":600000}", null);
    }

    @Override
    protected SubmitCall refusedCall(TaskId id) {
        return new SubmitCall(id, ReferenceHarness.SERVER, "anything", "{\"durationMs\":-1}", null);
    }
}
