package dev.mcptasks.adapters.gateway;

import dev.mcptasks.core.service.TaskChanges;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.repository.TaskChangeListener;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
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
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches task rows for the front door's waiters (blocked calls, status notifications). A row is read again as soon
 * as it is told changed ({@link TaskChanges}: this process's worker names the row at its commit, the store tells of
 * other processes' commits), and once per interval on the clock's timer as a safety net. Each pass reads each
 * watched (principal, task) once, whatever the number of waiters, and no thread is parked per waiter. The store is
 * the only truth, so a row moved by any worker or gateway is seen.
 *
 * <p>Passes never overlap: one runs at a time on the executor and takes every request made meanwhile, so observers
 * see the reads of one row in order and a burst of changes costs one pass.
 */
final class TaskWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(TaskWatcher.class);
    /** Rows read by one statement of a sweep. */
    static final int READ_BATCH = 200;

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
    private final TaskChanges changes;
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
    /** True while the safety-net timer is scheduled: at most one at a time. */
    private final AtomicBoolean armed = new AtomicBoolean();
    /** Rows told changed and not yet read again. */
    private final Set<TaskId> dirty = ConcurrentHashMap.newKeySet();
    /** Every watched row is to be read again (the timer, or a change of another process). */
    private final AtomicBoolean everyRow = new AtomicBoolean();
    /** True while a pass is queued or running. */
    private final AtomicBoolean passing = new AtomicBoolean();
    private WorkSubscription subscription; // guarded by this

    TaskWatcher(TaskService tasks, TaskChanges changes, Clock clock, Executor executor, Duration interval) {
        this.tasks = tasks;
        this.changes = changes;
        this.clock = clock;
        this.executor = executor;
        this.interval = interval;
    }

    /**
     * Registers {@code observer} for the row; it is read at the next pass, which is requested now: a change
     * committed between the caller's own read and this registration was announced to nobody, and is seen so.
     */
    Watch watch(String principal, TaskId id, Observer observer) {
        Watch watch = new Watch(principal, id, observer);
        watches.add(watch);
        listen();
        arm();
        changed(id);
        return watch;
    }

    /**
     * Completes with the row once {@code settled} holds for it (read at the next passes, not on this thread: the
     * caller has just read it), exceptionally with "task not found" if it disappears. The wait belongs to {@code request}:
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
     * {@link #until} bounded by {@code bound}: the row once {@code settled} holds for it, or empty when the bound
     * passed first (the wait then stops; the caller reads the row as it is).
     */
    CompletableFuture<Optional<TaskRecord>> within(FrontRequest request, TaskId id, Predicate<TaskRecord> settled,
            Duration bound) {
        CompletableFuture<TaskRecord> waiting = until(request, id, settled);
        CompletableFuture<Optional<TaskRecord>> answer = new CompletableFuture<>();
        Clock.Timer timer = clock.schedule(bound, () -> answer.complete(Optional.empty()));
        waiting.whenComplete((row, error) -> {
            timer.cancel();
            if (error != null) {
                answer.completeExceptionally(error);
            } else {
                answer.complete(Optional.of(row));
            }
        });
        answer.whenComplete((row, error) -> waiting.cancel(false));
        return answer;
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

    /** The live progress of {@code id}'s direct call as this process's worker hears it, until closed. */
    WorkSubscription liveProgress(TaskId id, Consumer<CallProgress> listener) {
        return changes.onProgress(id, listener);
    }

    /** Starts following the store's changes at the first watch; a watcher is never unsubscribed (it lives as long as the front door). */
    private synchronized void listen() {
        if (subscription == null) {
            subscription = changes.subscribe(new TaskChangeListener() {
                @Override
                public void changed(TaskId id) {
                    TaskWatcher.this.changed(id);
                }

                @Override
                public void changedSomewhere() {
                    everyRow.set(true);
                    requestPass();
                }
            });
        }
    }

    private void changed(TaskId id) {
        // cheap on every commit of the worker: only rows somebody waits on are queued for a read
        if (watches.stream().anyMatch(watch -> watch.id.equals(id))) {
            dirty.add(id);
            requestPass();
        }
    }

    private void arm() {
        if (!watches.isEmpty() && armed.compareAndSet(false, true)) {
            // the timer thread only hands over: reading the store there would delay every other timer (leases)
            clock.schedule(interval, () -> {
                armed.set(false);
                everyRow.set(true);
                requestPass();
                arm();
            });
        }
    }

    private void requestPass() {
        if (passing.compareAndSet(false, true)) {
            executor.execute(this::pass);
        }
    }

    private void pass() {
        while (true) {
            boolean all = everyRow.getAndSet(false);
            Set<TaskId> rows = new java.util.HashSet<>(dirty);
            dirty.removeAll(rows);
            if (!all && rows.isEmpty()) {
                passing.set(false);
                // a request made after the checks above saw passing=true and queued nothing: take it now
                if ((everyRow.get() || !dirty.isEmpty()) && passing.compareAndSet(false, true)) {
                    continue;
                }
                return;
            }
            sweep(all ? null : rows);
        }
    }

    /**
     * Reads every watched row, or only {@code rows} (non-null): {@value #READ_BATCH} rows to a read of the store, so
     * the waiters of a burst of commits cost one statement, not one each.
     */
    private void sweep(Set<TaskId> rows) {
        Map<Key, List<Watch>> byRow = new LinkedHashMap<>();
        for (Watch watch : watches) {
            if (rows == null || rows.contains(watch.id)) {
                byRow.computeIfAbsent(new Key(watch.principal, watch.id), key -> new ArrayList<>()).add(watch);
            }
        }
        List<Key> keys = new ArrayList<>(byRow.keySet());
        for (int from = 0; from < keys.size(); from += READ_BATCH) {
            List<Key> batch = keys.subList(from, Math.min(keys.size(), from + READ_BATCH));
            Map<TaskId, TaskRecord> found;
            try {
                found = tasks.findAll(batch.stream().map(Key::id).toList());
            } catch (RuntimeException e) {
                // the store is down for a moment: the waiters wait on, the next sweep reads again
                LOG.warn("gateway: cannot read {} watched tasks: {}", batch.size(), FrontCatalog.oneLine(e));
                continue;
            }
            for (Key key : batch) {
                tell(key, Optional.ofNullable(found.get(key.id()))
                        .filter(task -> TaskService.belongsTo(task, key.principal())), byRow.get(key));
            }
        }
    }

    private void tell(Key key, Optional<TaskRecord> row, List<Watch> waiting) {
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
