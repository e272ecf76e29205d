package dev.mcptasks.testkit.contract;

import dev.mcptasks.ports.repository.TaskRepository;

/**
 * The contract every {@link TaskRepository} passes: extend it and implement {@link #createRepository} and
 * {@link #ageWorkerHeartbeats} (and {@link #openPeer} when the store can be opened twice). Each topic is an interface
 * of default tests over {@link RepositoryFixture}; to run some topics only, extend {@link ContractFixture} and
 * implement those, and a new topic is one more interface listed here.
 */
public abstract class TaskRepositoryContract extends ContractFixture
        implements ClaimContract, FenceContract, StaleWriteContract, TransitionContract, CancelRequestContract,
        InputRoundContract, NotificationContract, DeadLetterContract, ReadContract, WorkerLivenessContract,
        GroupCommitContract, BatchWriteContract, ProgressContract, ConcurrentClaimContract, CreateClaimContract,
        PrincipalShareContract {
}
