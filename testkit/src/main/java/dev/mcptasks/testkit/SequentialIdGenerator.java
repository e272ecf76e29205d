package dev.mcptasks.testkit;

import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.IdGenerator;
import java.util.concurrent.atomic.AtomicLong;

/** Predictable ids for tests: {@code task-000001}, ... and {@code token-1}, ...; ids sort by creation. */
public final class SequentialIdGenerator implements IdGenerator {
    private final AtomicLong tasks = new AtomicLong();
    private final AtomicLong tokens = new AtomicLong();

    @Override
    public TaskId newTaskId() {
        return TaskId.of(String.format("task-%06d", tasks.incrementAndGet()));
    }

    @Override
    public ClaimToken newClaimToken() {
        return ClaimToken.of("token-" + tokens.incrementAndGet());
    }
}
