package dev.mcptasks.chaos;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Injects faults from a seeded random schedule until the fault window ends: SIGKILL (restart 0.5-2 s later), SIGSTOP
 * for longer than the lease (then SIGCONT), SIGTERM (drain, exit, restart). One fault at a time is started; a stopped
 * worker stays stopped while the next faults hit others.
 */
final class FaultInjector {
    private final WorkerPool pool;
    private final ChaosProfile profile;
    private final Random random;
    private final ScheduledExecutorService later = Executors.newScheduledThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "chaos-faults");
        thread.setDaemon(true);
        return thread;
    });

    FaultInjector(WorkerPool pool, ChaosProfile profile, long seed) {
        this.pool = pool;
        this.profile = profile;
        this.random = new Random(seed);
    }

    /** Runs the schedule on the calling thread until {@code untilMs} (epoch ms). */
    void run(long untilMs) throws InterruptedException, IOException {
        while (true) {
            long gap = profile.faultGapMinMs() + random.nextLong(profile.faultGapMaxMs() - profile.faultGapMinMs());
            if (System.currentTimeMillis() + gap >= untilMs) {
                break;
            }
            Thread.sleep(gap);
            List<WorkerPool.Slot> candidates = pool.faultable();
            // keep at least one worker able to make progress between faults
            if (candidates.size() <= 1) {
                continue;
            }
            WorkerPool.Slot slot = candidates.get(random.nextInt(candidates.size()));
            int dice = random.nextInt(100);
            if (dice < 40) {
                pool.kill(slot);
                long restartMs = 500 + random.nextInt(1_500);
                later.schedule(() -> restart(slot), restartMs, TimeUnit.MILLISECONDS);
            } else if (dice < 75) {
                pool.stop(slot);
                later.schedule(() -> pool.cont(slot), profile.stopMillis(random), TimeUnit.MILLISECONDS);
            } else {
                later.execute(() -> {
                    try {
                        pool.term(slot);
                        restart(slot);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
        }
    }

    /** Waits for scheduled continues and restarts, so that healing starts from a quiet pool. */
    void finish() throws InterruptedException {
        later.shutdown();
        later.awaitTermination(profile.leaseSeconds() + 60L, TimeUnit.SECONDS);
    }

    private void restart(WorkerPool.Slot slot) {
        try {
            pool.restart(slot);
        } catch (IOException e) {
            throw new IllegalStateException("cannot restart " + slot.tag, e);
        }
    }
}
