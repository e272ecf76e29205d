package dev.mcptasks.mcp;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.mcp.ReferenceHarness.Via;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.reference.ReferenceServerOptions;
import dev.mcptasks.testkit.contract.TaskDriverContract;

/** The driver contract against {@link NativeTasksDriver} and the reference server over Streamable HTTP. */
class NativeTasksDriverContractTest extends TaskDriverContract {
    private ReferenceHarness harness;

    @Override
    protected TaskDriver createDriver() {
        harness = new ReferenceHarness(Via.HTTP, ReferenceServerOptions.defaults(), true);
        return new NativeTasksDriver(harness.sessions);
    }

    @Override
    protected void closeDriver() {
        harness.close();
    }

    /** A task that runs for the whole test, so it can be read and cancelled while working. */
    @Override
    protected SubmitCall acceptedCall(TaskId id) {
        return new SubmitCall(id, ReferenceHarness.SERVER, "work", "{\"durationMs\":600000}", 60_000L);
    }

    @Override
    protected SubmitCall refusedCall(TaskId id) {
        return new SubmitCall(id, ReferenceHarness.SERVER, "no_such_tool", "{}", 60_000L);
    }
}
