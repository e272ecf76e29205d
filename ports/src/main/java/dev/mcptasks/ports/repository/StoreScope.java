package dev.mcptasks.ports.repository;

import java.util.function.Supplier;

/**
 * What spans the whole store rather than one role: transactions that group writes of several roles, and the signals
 * of work arriving or of another process's changes.
 */
public interface StoreScope {
    /**
     * Runs {@code work} as one store transaction (group commit): every write this repository makes on the calling
     * thread while {@code work} runs commits together when it returns, and none of them is kept when it throws (the
     * exception propagates as the single call would throw it). Each write inside keeps its own fence and returns its
     * own outcome, exactly as it would alone; a refused write inside changes nothing and does not spoil the others.
     * Inside, call only the fenced writes and releases of {@link TaskClaims} and {@link NotificationOutbox}
     * ({@link TaskClaims#renew}, {@link TaskClaims#recordSubmitAttempt}, {@link TaskClaims#recordProgress},
     * {@link TaskClaims#applySubmitted}, {@link TaskClaims#applyOutcome}, {@link TaskClaims#releaseAfterFailure},
     * {@link TaskClaims#releaseCancelled}, {@link TaskClaims#abandonCancel}, {@link TaskClaims#releaseToEndpoint},
     * {@link NotificationOutbox#markDispatched}, {@link NotificationOutbox#finishNotification},
     * {@link NotificationOutbox#retryNotification}, {@link NotificationOutbox#deadLetterNotification},
     * {@link NotificationOutbox#releaseNotification}, and their batched forms such as {@link TaskClaims#renewAll}),
     * or {@link TaskRecords#create} with the same store's audit append (a submit and its
     * record commit together; the work-arrival signal goes out at that commit); a call made inside
     * another {@code inOneTransaction} on the same thread joins the outer transaction. A write that throws inside may
     * leave the transaction unusable (PostgreSQL aborts it): callers that want the other writes kept run them again,
     * each alone. {@link FencedWriteHook} runs inside the transaction.
     *
     * <p>The default supports nothing and throws {@link UnsupportedOperationException} before running {@code work}:
     * a worker on such a store commits each write alone.
     */
    default <T> T inOneTransaction(Supplier<T> work) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot group writes in one transaction");
    }

    /**
     * Registers {@code listener} to be called when work may have become due in the store without a clock reaching a
     * due time: a task created, a cancel requested, an answer stored, a dead letter replayed. Writes of this process
     * signal right after they commit; writes of other processes as soon as the store can tell (PostgreSQL
     * {@code LISTEN/NOTIFY}; SQLite a cheap check of the database's data version every few milliseconds). Calls may
     * be spurious and are coalesced; the listener runs on a store thread, so it must return at once and not throw.
     * Work due by time alone (a poll's {@code next_control_at}) is not signalled: the worker's tick finds it. The
     * default signals nothing.
     */
    default WorkSubscription onWorkArrival(Runnable listener) {
        return WorkSubscription.NONE;
    }

    /**
     * Registers {@code listener} to be told when another process may have committed changes that readers wait for
     * (a result, a status): {@link TaskChangeListener#changedSomewhere} as soon as the store can tell (SQLite: the
     * database's data version, checked every few milliseconds). Changes made by this process's own worker are
     * announced by the worker itself, with their task ids, not here. The default tells nothing: readers fall back
     * to polling.
     */
    default WorkSubscription onForeignChange(TaskChangeListener listener) {
        return WorkSubscription.NONE;
    }
}
