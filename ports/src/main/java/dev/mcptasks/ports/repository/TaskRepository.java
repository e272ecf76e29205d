package dev.mcptasks.ports.repository;

/**
 * The durable task store: every role a store plays, in one interface. Every implementation passes the same
 * {@code TaskRepositoryContract}. Callers that need one role take that role ({@link TaskRecords}, {@link TaskClaims},
 * {@link NotificationOutbox}, {@link WorkerRegistry}, {@link StoreScope}); a decorator implements only the role it
 * changes and is composed with the others by {@link ComposedTaskRepository}.
 *
 * <p><b>Time.</b> "now" is the repository's injected {@code Clock} at the moment of the statement, with one
 * exception: worker liveness (heartbeat stamps and every judgement of them) uses the <i>store's</i> clock, the
 * database's own now (the in-memory store's clock), read in the statement that stamps or judges, so workers whose
 * clocks disagree still agree on who is alive. Instants are stored at millisecond precision.
 */
public interface TaskRepository extends TaskRecords, TaskClaims, NotificationOutbox, WorkerRegistry, StoreScope {}
