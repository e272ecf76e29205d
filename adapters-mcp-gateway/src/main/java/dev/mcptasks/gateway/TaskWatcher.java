package dev.mcptasks.gateway;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches task rows for the front door's waiters (blocked calls, status notifications) by reading the store on the
 * clock's timers: one sweep per interval reads each watched (principal, task) once, whatever the number of waiters,
 * and no thread is parked per waiter. The store is the only truth, so a row moved by any worker or gateway is seen.
 */
final class TaskWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(TaskWatcher.class);

    /** Sees each read of the row (empty: the row is gone or not the principal's); returns true to stop watching. */
    interface Observer {
        boolean seen(Optional<TaskRecord> row);
    }

    /** One registration; {@link #cancel} stops it. */
    final class Watch {
        private final String principal;
        private final TaskId id;
        private final Observer observer;

        private Watch(String principal, TaskId id, Observer observer) {
            this.principal = principal;
            this.id = id;
            this.observer = observer;
        }

        void cancel() {
            watches.remove(this);
        }
    }

    private record Key(String principal, TaskId id) {}

    private final TaskService tasks;
    private final Clock clock;
    private final Executor executor;
    private final Duration interval;
    private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
    /** Waits by request, by identity: two equal messages are still two requests. */
    private final Map<FrontRequest, Set<CompletableFuture<TaskRecord>>> waits =
            Collections.synchronizedMap(new IdentityHashMap<>());
    /** Requests whose client left while their handler still ran (see {@link #abandon}). */
    private final Set<FrontRequest> abandoned = Collections.synchronizedSet(
            Collections.newSetFromMap(new IdentityHashMap<>()));
    /** True while a sweep is scheduled or running: at most one at a time, so reads never pile up. */
    private final AtomicBoolean armed = new AtomicBoolean();

    TaskWatcher(TaskService tasks, Clock clock, Executor executor, Duration interval) {
        this.tasks = tasks;
        this.clock = clock;
        this.executor = executor;
        this.interval = interval;
    }

    Watch watch(String principal, TaskId id, Observer observer) {
        Watch watch = new Watch(principal, id, observer);
        watches.add(watch);
        arm();
        return watch;
    }

    /**
     * Completes with the row once {@code settled} holds for it (read at the next sweeps, not now: the caller has
     * just read it), exceptionally with "task not found" if it disappears. The wait belongs to {@code request}:
     * {@link #abandon} (the client went away) cancels it, and so does cancelling the future.
     */
    CompletableFuture<TaskRecord> until(FrontRequest request, TaskId id, Predicate<TaskRecord> settled) {
        CompletableFuture<TaskRecord> future = new CompletableFuture<>();
        Watch watch = watch(request.principal(), id, row -> {
            if (row.isEmpty()) {
                future.completeExceptionally(FrontError.taskNotFound());
                return true;
            }
            if (settled.test(row.get())) {
                future.complete(row.get());
                return true;
            }
            return future.isDone();
        });
        waits.computeIfAbsent(request, key -> ConcurrentHashMap.newKeySet()).add(future);
        future.whenComplete((row, error) -> {
            watch.cancel();
            waits.computeIfPresent(request, (key, futures) -> {
                futures.remove(future);
                return futures.isEmpty() ? null : futures;
            });
        });
        // registered first, checked second; abandon marks first, cancels second: one of the two sees the other
        if (abandoned.contains(request)) {
            future.cancel(false);
        }
        return future;
    }

    /**
     * The request's client is gone: its waits stop (derived futures do not carry a cancel back to them), and so
     * does any wait its handler registers later, until {@link #finished}.
     */
    void abandon(FrontRequest request) {
        abandoned.add(request);
        Set<CompletableFuture<TaskRecord>> futures = waits.remove(request);
        if (futures != null) {
            futures.forEach(future -> future.cancel(false));
        }
    }

    /** The request's handler has answered: it registers no more waits. */
    void finished(FrontRequest request) {
        abandoned.remove(request);
    }

    int watching() {
        return watches.size();
    }

    private void arm() {
        if (!watches.isEmpty() && armed.compareAndSet(false, true)) {
            // the timer thread only hands over: reading the store there would delay every other timer (leases)
            clock.schedule(interval, () -> executor.execute(this::sweep));
        }
    }

    private void sweep() {
        try {
            Map<Key, List<Watch>> byRow = new LinkedHashMap<>();
            for (Watch watch : watches) {
                byRow.computeIfAbsent(new Key(watch.principal, watch.id), key -> new ArrayList<>()).add(watch);
            }
            byRow.forEach(this::read);
        } finally {
            // a watch added during the sweep saw armed=true and did not schedule: this re-arm covers it
            armed.set(false);
            arm();
        }
    }

    private void read(Key key, List<Watch> waiting) {
        Optional<TaskRecord> row;
        try {
            row = tasks.findFor(key.principal(), key.id());
        } catch (RuntimeException e) {
            // the store is down for a moment: the waiters wait on, the next sweep reads again
            LOG.warn("gateway: cannot read task {} while waiting for it: {}", key.id(), FrontCatalog.oneLine(e));
            return;
        }
        for (Watch watch : waiting) {
            try {
                if (watch.observer.seen(row)) {
                    watch.cancel();
                }
            } catch (RuntimeException e) {
                LOG.warn("gateway: a waiter of task {} failed and stops watching: {}", key.id(),
                        FrontCatalog.oneLine(e));
                watch.cancel();
            }
        }
    }
}
