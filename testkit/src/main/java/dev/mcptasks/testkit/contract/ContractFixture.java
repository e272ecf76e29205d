package dev.mcptasks.testkit.contract;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import dev.mcptasks.ports.repository.FencedWriteHook;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The state behind {@link RepositoryFixture}: opens a fresh store per test through {@link #createRepository}, keeps
 * the peers it opened and closes them all after the test. Extend it and implement the topics to run
 * ({@link TaskRepositoryContract} implements every one).
 */
public abstract class ContractFixture implements RepositoryFixture {
    protected ManualClock clock;
    protected SequentialIdGenerator ids;
    protected CloseableTaskRepository repo;
    PausingWriteHook hook;
    private final List<CloseableTaskRepository> peers = new ArrayList<>();
    private final List<TaskId> created = new ArrayList<>();

    /** A fresh, empty store for one test. */
    protected abstract CloseableTaskRepository createRepository(Clock clock, IdGenerator ids, FencedWriteHook hook);

    /**
     * Makes every stored heartbeat {@code by} older, as if that much time had passed on the <i>store's</i> clock and
     * on no worker's: the database's own now cannot be moved by a test, so heartbeats are aged instead.
     */
    protected abstract void ageWorkerHeartbeats(Duration by);

    /**
     * Another handle on the store {@link #createRepository} made (a second connection pool on the same database);
     * implementations with a single handle return the first repository, which is the default.
     */
    protected CloseableTaskRepository openPeer(Clock clock, IdGenerator ids, FencedWriteHook hook) {
        return repo;
    }

    @BeforeEach
    void openRepository() {
        clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        ids = new SequentialIdGenerator();
        hook = new PausingWriteHook();
        repo = createRepository(clock, ids, hook);
    }

    @AfterEach
    void closeRepository() {
        hook.releaseAll();
        for (CloseableTaskRepository peer : peers) {
            peer.close();
        }
        repo.close();
    }

    @Override
    public final CloseableTaskRepository repo() {
        return repo;
    }

    @Override
    public final ManualClock clock() {
        return clock;
    }

    @Override
    public final SequentialIdGenerator ids() {
        return ids;
    }

    @Override
    public final PausingWriteHook hook() {
        return hook;
    }

    @Override
    public CloseableTaskRepository peer(Clock peerClock) {
        CloseableTaskRepository peer = openPeer(peerClock, ids, hook);
        if (peer != repo) {
            peers.add(peer);
        }
        return peer;
    }

    @Override
    public final void ageHeartbeats(Duration by) {
        ageWorkerHeartbeats(by);
    }

    @Override
    public final TaskId create(NewTask task) {
        repo.create(task);
        created.add(task.id());
        return task.id();
    }

    @Override
    public final List<TaskId> created() {
        return Collections.unmodifiableList(created);
    }
}
