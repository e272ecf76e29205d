package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskQuery;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Contract, concurrency: workers scanning at once on two handles of the store take every row exactly once per lease
 * generation, each claim with a token of its own.
 */
public interface ConcurrentClaimContract extends RepositoryFixture {
    int ROWS = 2_000;
    int WORKERS = 8;
    int BATCH = 25;

    @Test
    default void concurrentClaimsHandEveryRowToExactlyOneWorkerPerGeneration() throws Exception {
        for (int i = 0; i < ROWS; i++) {
            create();
        }
        TaskRepository peer = peer();
        List<TaskRepository> handles = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            handles.add(w % 2 == 0 ? repo() : peer);
        }

        List<ClaimedTask> first = claimConcurrently(handles);
        assertEveryRowExactlyOnce(first);
        advance(LEASE);
        List<ClaimedTask> second = claimConcurrently(handles);
        assertEveryRowExactlyOnce(second);

        Set<ClaimToken> tokens = new HashSet<>();
        first.forEach(claimed -> tokens.add(claimed.claim().token()));
        second.forEach(claimed -> tokens.add(claimed.claim().token()));
        assertThat(tokens).hasSize(2 * ROWS);
        Map<TaskId, ClaimToken> current = new HashMap<>();
        second.forEach(claimed -> current.put(claimed.claim().taskId(), claimed.claim().token()));
        for (TaskRecord row : allRows()) {
            assertThat(row.control().submitAttemptCount()).as("attempts of %s", row.id()).isEqualTo(2);
            assertThat(row.lease().token()).as("lease of %s", row.id()).isEqualTo(current.get(row.id()));
        }
    }

    /** Every worker scans until a scan comes back empty; rows are never released, so empty is final. */
    private List<ClaimedTask> claimConcurrently(List<TaskRepository> handles) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<ClaimedTask>>> results = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                TaskRepository handle = handles.get(w);
                ControlClaimRequest request = request(ClaimPhase.SUBMIT, WorkerId.of("worker-" + w), BATCH, Set.of());
                Callable<List<ClaimedTask>> worker = () -> {
                    start.await();
                    List<ClaimedTask> mine = new ArrayList<>();
                    List<ClaimedTask> batch;
                    while (!(batch = handle.claimControl(request)).isEmpty()) {
                        mine.addAll(batch);
                    }
                    return mine;
                };
                results.add(pool.submit(worker));
            }
            start.countDown();
            List<ClaimedTask> all = new ArrayList<>();
            for (Future<List<ClaimedTask>> result : results) {
                all.addAll(result.get(2, TimeUnit.MINUTES));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    private void assertEveryRowExactlyOnce(List<ClaimedTask> claims) {
        Map<TaskId, Integer> counts = new HashMap<>();
        for (ClaimedTask claimed : claims) {
            counts.merge(claimed.claim().taskId(), 1, Integer::sum);
            assertThat(claimed.task().lease().owner()).isEqualTo(claimed.claim().owner());
        }
        assertThat(counts).hasSize(ROWS);
        assertThat(counts.values()).as("claims per row").containsOnly(1);
    }

    private List<TaskRecord> allRows() {
        List<TaskRecord> rows = new ArrayList<>();
        TaskId before = null;
        List<TaskRecord> page;
        do {
            page = repo().list(new TaskQuery(null, null, TaskQuery.MAX_LIMIT, before));
            rows.addAll(page);
            before = page.isEmpty() ? null : page.get(page.size() - 1).id();
        } while (page.size() == TaskQuery.MAX_LIMIT);
        assertThat(rows).hasSize(ROWS);
        return rows;
    }
}
