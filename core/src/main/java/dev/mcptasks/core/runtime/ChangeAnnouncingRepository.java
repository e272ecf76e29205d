package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingTaskRepository;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.ClaimedWrite;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Announces each fenced write that changed what a client reads of a task (status, result, progress message), once
 * it is committed: a waiting gateway call is answered from the commit, not from its next poll. A write inside
 * {@link #inOneTransaction} (the group commit's batches) is announced only after the whole transaction returned, so
 * a reader told of a change always reads it; a rolled-back transaction announces nothing.
 */
final class ChangeAnnouncingRepository extends ForwardingTaskRepository {
    private final TaskRepository delegate;
    private final Consumer<TaskId> announce;
    /** The ids written by the transaction this thread runs, announced at its end (null: none running). */
    private final ThreadLocal<List<TaskId>> pending = new ThreadLocal<>();

    ChangeAnnouncingRepository(TaskRepository delegate, Consumer<TaskId> announce) {
        this.delegate = delegate;
        this.announce = announce;
    }

    @Override
    protected TaskRepository delegate() {
        return delegate;
    }

    @Override
    public boolean applySubmitted(Claim claim, SubmitWrite write) {
        return announced(claim, delegate.applySubmitted(claim, write));
    }

    @Override
    public boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return announced(claim, delegate.applyOutcome(claim, write));
    }

    @Override
    public boolean recordProgress(Claim claim, String statusMessage) {
        return announced(claim, delegate.recordProgress(claim, statusMessage));
    }

    @Override
    public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
        return announced(claim, delegate.releaseAfterFailure(claim, write));
    }

    @Override
    public boolean releaseCancelled(Claim claim) {
        return announced(claim, delegate.releaseCancelled(claim));
    }

    @Override
    public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
        return announced(claim, delegate.abandonCancel(claim, reason, nextControlAt));
    }

    @Override
    public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
        return announcedAll(writes, delegate.applySubmittedAll(writes));
    }

    @Override
    public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
        return announcedAll(writes, delegate.applyOutcomes(writes));
    }

    @Override
    public <T> T inOneTransaction(Supplier<T> work) {
        if (pending.get() != null) {
            return delegate.inOneTransaction(work);
        }
        List<TaskId> written = new ArrayList<>();
        pending.set(written);
        T result;
        try {
            result = delegate.inOneTransaction(work);
        } finally {
            pending.remove();
        }
        written.forEach(announce);
        return result;
    }

    private List<Boolean> announcedAll(List<? extends ClaimedWrite<?>> writes, List<Boolean> results) {
        for (int i = 0; i < results.size(); i++) {
            announced(writes.get(i).claim(), results.get(i));
        }
        return results;
    }

    private boolean announced(Claim claim, boolean written) {
        if (written) {
            List<TaskId> transaction = pending.get();
            if (transaction != null) {
                transaction.add(claim.taskId());
            } else {
                announce.accept(claim.taskId());
            }
        }
        return written;
    }
}
