package dev.mcptasks.testkit.contract;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.FencedWriteHook;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link FencedWriteHook} that holds the first matching fenced write (one kind, one task) until the test resumes
 * it, so a stale writer can be parked right before its conditional UPDATE while another worker takes the row.
 */
public final class PausingWriteHook implements FencedWriteHook {
    /** Long enough for a loaded CI machine, short enough that a broken repository fails instead of hanging. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final AtomicReference<Pause> armed = new AtomicReference<>();

    /** Arms the hook for the next {@code write} on {@code taskId}; later matching writes pass straight through. */
    public Pause arm(FencedWrite write, TaskId taskId) {
        Pause pause = new Pause(write, taskId);
        armed.set(pause);
        return pause;
    }

    /** Lets any parked writer go (called after each test so no thread stays blocked). */
    public void releaseAll() {
        Pause pause = armed.getAndSet(null);
        if (pause != null) {
            pause.resume();
        }
    }

    @Override
    public void beforeFencedWrite(FencedWrite write, TaskId taskId) {
        Pause pause = armed.get();
        if (pause != null && pause.write == write && pause.taskId.equals(taskId)
                && pause.taken.compareAndSet(false, true)) {
            pause.reached.countDown();
            pause.awaitResume();
        }
    }

    /** One armed pause: the writer signals {@link #awaitReached} and waits for {@link #resume}. */
    public static final class Pause {
        private final FencedWrite write;
        private final TaskId taskId;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch resumed = new CountDownLatch(1);

        private Pause(FencedWrite write, TaskId taskId) {
            this.write = write;
            this.taskId = taskId;
        }

        public boolean awaitReached() throws InterruptedException {
            return reached.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }

        public void resume() {
            resumed.countDown();
        }

        private void awaitResume() {
            try {
                if (!resumed.await(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("a paused " + write + " on " + taskId + " was never resumed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while paused before " + write, e);
            }
        }
    }
}
