package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingStoreScope;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.ResultWatchingClaims;
import dev.mcptasks.ports.repository.StoreScope;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Announces each fenced write that changed what a client reads of a task (status, result, progress message), once
 * it is committed: a waiting gateway call is answered from the commit, not from its next poll. A write inside
 * {@link #inOneTransaction} (the group commit's batches) is announced only after the whole transaction returned, so
 * a reader told of a change always reads it; a rolled-back transaction announces nothing. Only the claims and the
 * store scope (its transactions) are wrapped.
 */
final class ChangeAnnouncingRepository implements ComposedTaskRepository {
    private final Roles roles;

    ChangeAnnouncingRepository(TaskRepository delegate, Consumer<TaskId> announce) {
        this(delegate, new Announcements(announce));
    }

    private ChangeAnnouncingRepository(TaskRepository delegate, Announcements announcements) {
        this.roles = ComposedTaskRepository.of(delegate)
                .withClaims(claims -> new AnnouncingClaims(claims, announcements))
                .withStoreScope(store -> new AnnouncingTransactions(store, announcements));
    }

    @Override
    public Roles roles() {
        return roles;
    }

    /** The ids written by the transaction each thread runs, announced at its end. */
    private static final class Announcements {
        private final Consumer<TaskId> announce;
        /** The ids written by the transaction this thread runs (null: none running). */
        private final ThreadLocal<List<TaskId>> pending = new ThreadLocal<>();

        Announcements(Consumer<TaskId> announce) {
            this.announce = announce;
        }

        boolean announced(Claim claim, boolean written) {
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

        List<Boolean> announcedAll(List<? extends ClaimedWrite<?>> writes, List<Boolean> results) {
            for (int i = 0; i < results.size(); i++) {
                announced(writes.get(i).claim(), results.get(i));
            }
            return results;
        }
    }

    /** The claims' writes that change what a reader sees, announced once committed. */
    private static final class AnnouncingClaims implements ResultWatchingClaims {
        private final TaskClaims delegate;
        private final Announcements announcements;

        AnnouncingClaims(TaskClaims delegate, Announcements announcements) {
            this.delegate = delegate;
            this.announcements = announcements;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            return announcements.announced(claim, delegate().applySubmitted(claim, write));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return announcements.announced(claim, delegate().applyOutcome(claim, write));
        }

        @Override
        public boolean recordProgress(Claim claim, String statusMessage) {
            return announcements.announced(claim, delegate().recordProgress(claim, statusMessage));
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            return announcements.announced(claim, delegate().releaseAfterFailure(claim, write));
        }

        @Override
        public boolean releaseCancelled(Claim claim) {
            return announcements.announced(claim, delegate().releaseCancelled(claim));
        }

        @Override
        public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
            return announcements.announced(claim, delegate().abandonCancel(claim, reason, nextControlAt));
        }

        @Override
        public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
            return announcements.announcedAll(writes, delegate().applySubmittedAll(writes));
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            return announcements.announcedAll(writes, delegate().applyOutcomes(writes));
        }
    }

    /** Transactions whose writes are announced when the outermost one returned. */
    private static final class AnnouncingTransactions implements ForwardingStoreScope {
        private final StoreScope delegate;
        private final Announcements announcements;

        AnnouncingTransactions(StoreScope delegate, Announcements announcements) {
            this.delegate = delegate;
            this.announcements = announcements;
        }

        @Override
        public StoreScope delegate() {
            return delegate;
        }

        @Override
        public <T> T inOneTransaction(Supplier<T> work) {
            if (announcements.pending.get() != null) {
                return delegate().inOneTransaction(work);
            }
            List<TaskId> written = new ArrayList<>();
            announcements.pending.set(written);
            T result;
            try {
                result = delegate().inOneTransaction(work);
            } finally {
                announcements.pending.remove();
            }
            written.forEach(announcements.announce);
            return result;
        }
    }
}
