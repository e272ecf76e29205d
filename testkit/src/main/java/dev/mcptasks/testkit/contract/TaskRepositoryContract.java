package dev.mcptasks.testkit.contract;

/**
 * The contract every {@link dev.mcptasks.ports.repository.TaskRepository} passes: extend it, implement
 * {@link #createRepository} (and {@link #openPeer} when the store can be opened twice). The suite is split by topic
 * into a chain of abstract classes so each stays small; this class ends the chain.
 */
public abstract class TaskRepositoryContract extends CancelRequestContract {
}
