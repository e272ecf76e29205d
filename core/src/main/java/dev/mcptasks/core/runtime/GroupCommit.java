package dev.mcptasks.core.runtime;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.FencedWrite;
import dev.mcptasks.ports.repository.TaskRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit of one worker's fenced writes: callers hand over a write and get its own outcome, while committer
 * threads drain the queue in batches of at most {@link #MAX_BATCH} and run each batch in one
 * {@link TaskRepository#inOneTransaction store transaction}, so the writes of N claims cost one commit. An outcome
 * is handed back only after the transaction that made it committed (persisted before anything is sent on it).
 *
 * <p><b>Batched statements.</b> A write of a {@link Kind} (a renewal, a submit attempt, a result, a delivery finish...)
 * shares one store call with the other writes of its kind in the batch ({@link TaskRepository#renewAll} and the
 * like), so N claims cost one statement, not N. Grouping moves a write earlier only past writes of other rows: a write
 * of the same row in between (or a write that names no row) keeps it in its place, so every row sees its writes in
 * queue order. The writes of one store call are of distinct rows. A batched call that throws is treated like a
 * failed transaction: every write of the batch runs again alone.
 *
 * <p><b>Failures.</b> When one write of a batch throws, or the transaction itself fails, the batch is rolled back (the
 * exception leaves the work). The write that threw completes with its own exception (it is one store call and every
 * write before it had succeeded, so the failure is its own); every other write runs again alone, in its own
 * transaction, completing with its own result or exception. Running a write again is safe: every write is fenced and
 * idempotent under its fence, and the rolled-back batch left nothing behind. A batch of one runs alone directly. A
 * store that cannot group (its {@code inOneTransaction} throws {@link UnsupportedOperationException} before running
 * the work) switches this worker to one write at a time, on the caller's thread, for good.
 *
 * <p><b>Stalls.</b> One slow statement (a row lock, a hung connection) must not hold back every other write of the
 * worker, renewals above all: a batch still running {@link #STALL_AFTER} after it began (on the worker's clock)
 * lets one more committer start, up to {@link #MAX_STALLED} beyond the configured number.
 *
 * <p><b>Shutdown.</b> After {@link #stop} writes run inline on the caller's thread (asynchronous ones on the fallback
 * executor, because their callers, timers among them, must not block): nothing is rejected, and writes already
 * queued are still committed by the committers that hold them.
 */
final class GroupCommit {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);
    static final int MAX_BATCH = 128;
    static final Duration STALL_AFTER = Duration.ofMillis(200);
    static final int MAX_STALLED = 8;

    private final TaskRepository store;
    private final int threads;
    private final Clock clock;
    private final Executor fallback;
    private final RuntimeCounters counters;
    private final ThreadPoolExecutor committers;
    /** Units of writes; a unit is never split across batches. */
    private final ConcurrentLinkedQueue<List<Item<?>>> queue = new ConcurrentLinkedQueue<>();
    /** Committers started and not yet exited. */
    private final AtomicInteger running = new AtomicInteger();
    /** Batches running past {@link #STALL_AFTER}: each allows one more committer. */
    private final AtomicInteger stalled = new AtomicInteger();
    private final AtomicBoolean ungroupedLogged = new AtomicBoolean();
    /** Set on committer threads: a write issued from one (a completion callback) runs inline, never queues. */
    private final ThreadLocal<Boolean> onCommitter = ThreadLocal.withInitial(() -> false);
    private volatile boolean grouping = true;
    private volatile boolean stopped;

    /**
     * @param store the repository the writes go to (never a decorator that queues here again)
     * @param threads committers draining the queue in normal operation (1 for SQLite's single writer)
     * @param clock the worker's clock, which times stalled batches
     * @param fallback runs asynchronous writes when they cannot queue (after stop, or a store that cannot group)
     * @param name names the committer threads
     */
    GroupCommit(TaskRepository store, int threads, Clock clock, Executor fallback, RuntimeCounters counters,
            String name) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.store = store;
        this.threads = threads;
        this.clock = clock;
        this.fallback = fallback;
        this.counters = counters;
        AtomicInteger numbers = new AtomicInteger();
        this.committers = new ThreadPoolExecutor(0, threads + MAX_STALLED, 30, TimeUnit.SECONDS,
                new SynchronousQueue<>(), task -> {
                    Thread thread = new Thread(task, name + "-commit-" + numbers.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * A kind of fenced write that many claims make at once and the store can make for all of them in one call.
     *
     * @param write the fenced write it is (one name per kind of write, shared with the store's hooks)
     * @param variant what else must be equal for writes to share a store call ("" if nothing; a renewal's lease)
     * @param row the row an argument writes (writes of one store call are of distinct rows)
     * @param alone the single write
     * @param together the batched write: one outcome per argument, in order
     */
    record Kind<A, T>(FencedWrite write, String variant, Function<A, Object> row,
            BiFunction<TaskRepository, A, T> alone, BiFunction<TaskRepository, List<A>, List<T>> together) {
        /** Writes of kinds with equal names share store calls. */
        String name() {
            return variant.isEmpty() ? write.name() : write.name() + " " + variant;
        }
    }

    /** Runs {@code write} in the next batch and waits for its own outcome (its exception is rethrown as is). */
    <T> T run(Supplier<T> write) {
        return runOn(null, write);
    }

    /** {@link #run(Supplier)} for a write of one {@code row} (null: a write that may touch any row). */
    <T> T runOn(Object row, Supplier<T> write) {
        if (!queues()) {
            return write.get();
        }
        return join(enqueue(new Item<>(row, write)));
    }

    /** Runs a write of {@code kind} in the next batch, together with the others of its kind, and waits for it. */
    <A, T> T run(Kind<A, T> kind, A argument) {
        if (!queues()) {
            return kind.alone().apply(store, argument);
        }
        return join(enqueue(new Item<>(kind, argument, store)));
    }

    /** Queues a write of {@code kind}; no thread waits for it. Completes on a committer thread, after the commit. */
    <A, T> CompletableFuture<T> submit(Kind<A, T> kind, A argument) {
        return submit(new Item<>(kind, argument, store));
    }

    /** Queues {@code write}; no thread waits for it. Completes on a committer thread, after the commit. */
    <T> CompletableFuture<T> submit(Supplier<T> write) {
        return submitOn(null, write);
    }

    /** {@link #submit(Supplier)} for a write of one {@code row} (null: a write that may touch any row). */
    <T> CompletableFuture<T> submitOn(Object row, Supplier<T> write) {
        return submit(new Item<>(row, write));
    }

    private <T> CompletableFuture<T> submit(Item<T> item) {
        if (!queues()) {
            if (onCommitter.get()) {
                return runAlone(item.write);
            }
            try {
                return CompletableFuture.supplyAsync(item.write, fallback);
            } catch (RejectedExecutionException e) {
                return runAlone(item.write);
            }
        }
        return enqueue(item);
    }

    /**
     * Queues writes of {@code kind} as one unit: they are committed in the same batch (one transaction when the store
     * can group), each with its own outcome, in order.
     */
    <A, T> List<CompletableFuture<T>> submitAll(Kind<A, T> kind, List<A> arguments) {
        if (!queues()) {
            return arguments.stream().map(argument -> submit(kind, argument)).toList();
        }
        List<Item<?>> unit = new ArrayList<>();
        List<CompletableFuture<T>> outcomes = new ArrayList<>();
        for (A argument : arguments) {
            Item<T> item = new Item<>(kind, argument, store);
            unit.add(item);
            outcomes.add(item.result);
        }
        if (!unit.isEmpty()) {
            queue.add(unit);
            startCommitterIfAllowed();
        }
        return outcomes;
    }

    /** From now on writes run on their caller's thread; queued writes are still committed. Idempotent. */
    void stop() {
        stopped = true;
        committers.shutdown();
    }

    private boolean queues() {
        return grouping && !stopped && !onCommitter.get();
    }

    private <T> CompletableFuture<T> enqueue(Item<T> item) {
        queue.add(List.of(item));
        startCommitterIfAllowed();
        return item.result;
    }

    private void startCommitterIfAllowed() {
        while (true) {
            int now = running.get();
            if (now >= threads + Math.min(stalled.get(), MAX_STALLED)) {
                return;
            }
            if (running.compareAndSet(now, now + 1)) {
                break;
            }
        }
        try {
            committers.execute(this::drain);
        } catch (RejectedExecutionException e) {
            // stopped meanwhile: whatever was queued before the stop is committed here, on the caller's thread
            drain();
        }
    }

    /** One committer: takes batches until the queue is empty or more committers run than are allowed. */
    private void drain() {
        boolean previous = onCommitter.get();
        onCommitter.set(true);
        try {
            while (true) {
                List<Item<?>> batch = new ArrayList<>();
                for (List<Item<?>> unit; batch.size() < MAX_BATCH && (unit = queue.poll()) != null; ) {
                    batch.addAll(unit);
                }
                if (!batch.isEmpty()) {
                    runWatched(batch);
                }
                if (batch.isEmpty() || running.get() > threads + Math.min(stalled.get(), MAX_STALLED)) {
                    running.decrementAndGet();
                    // an item queued after the poll above found this committer still counted: start one for it
                    if (!queue.isEmpty()) {
                        startCommitterIfAllowed();
                    }
                    return;
                }
            }
        } finally {
            onCommitter.set(previous);
        }
    }

    /** Nothing queued and no committer running (tests wait for this before asserting that nothing happened). */
    boolean idle() {
        return queue.isEmpty() && running.get() == 0;
    }

    private void runWatched(List<Item<?>> batch) {
        StallWatch watch = new StallWatch();
        Clock.Timer timer = null;
        try {
            timer = clock.schedule(STALL_AFTER, watch::fire);
        } catch (RuntimeException e) {
            LOG.debug("no stall bound for this batch: the clock refused a timer: {}", e.toString());
        }
        try {
            if (batch.size() == 1 || !grouping) {
                batch.forEach(Item::runAlone);
            } else {
                runGrouped(batch);
            }
        } catch (RuntimeException | Error e) {
            // never reached by a write's own failure (each is caught): a caller must still get an answer
            LOG.warn("the group commit failed unexpectedly; failing the writes of its batch", e);
            batch.forEach(item -> item.result.completeExceptionally(e));
        } finally {
            if (timer != null) {
                timer.cancel();
            }
            watch.end();
        }
    }

    private void runGrouped(List<Item<?>> batch) {
        Object[] results = new Object[batch.size()];
        AtomicBoolean started = new AtomicBoolean();
        // the write that threw inside the batch, and what it threw: every write is one store call, and all before it
        // had succeeded in the same transaction, so its failure is its own outcome and it is not run a second time
        // (a batched call that throws names no single write: then every write runs again alone)
        int[] thrower = {-1};
        Throwable[] thrown = {null};
        // store calls that made several writes at once, and their writes: counted once the transaction committed
        int[] batched = {0, 0};
        try {
            store.inOneTransaction(() -> {
                started.set(true);
                batched[0] = 0;
                batched[1] = 0;
                boolean[] done = new boolean[results.length];
                for (int i = 0; i < results.length; i++) {
                    if (done[i]) {
                        continue;
                    }
                    List<Integer> members = batch.get(i).kind == null ? List.of(i) : sameKind(batch, i, done);
                    if (members.size() == 1) {
                        try {
                            results[i] = batch.get(i).write.get();
                        } catch (RuntimeException | Error e) {
                            thrower[0] = i;
                            thrown[0] = e;
                            throw e;
                        }
                    } else {
                        runTogether(batch, members, results, batched);
                    }
                    members.forEach(member -> done[member] = true);
                }
                return null;
            });
        } catch (UnsupportedOperationException e) {
            if (!started.get()) {
                grouping = false;
                if (ungroupedLogged.compareAndSet(false, true)) {
                    LOG.info("the store cannot group writes in one transaction; committing each write alone: {}",
                            e.getMessage());
                }
                batch.forEach(Item::runAlone);
                return;
            }
            runAloneAfterRollback(batch, thrower[0], thrown[0]);
            return;
        } catch (RuntimeException | Error e) {
            // rolled back: nothing of the batch was kept, so each other write runs again alone with its own outcome
            LOG.debug("a batch of {} writes failed ({}); running each alone", batch.size(), e.toString());
            runAloneAfterRollback(batch, thrower[0], thrown[0]);
            return;
        }
        counters.commitBatches.incrementAndGet();
        counters.groupedWrites.addAndGet(batch.size());
        counters.batchedStatements.addAndGet(batched[0]);
        counters.batchedWrites.addAndGet(batched[1]);
        for (int i = 0; i < results.length; i++) {
            batch.get(i).completeWith(results[i]);
        }
    }

    /**
     * The writes that join {@code batch[first]}'s store call: of its kind, not yet done, each of a row not already in
     * the call, and with no write of its row (nor a write that names no row) between {@code first} and itself, so
     * moving it up to {@code first} changes no row's order of writes.
     */
    private static List<Integer> sameKind(List<Item<?>> batch, int first, boolean[] done) {
        String kind = batch.get(first).kind.name();
        List<Integer> members = new ArrayList<>(List.of(first));
        Set<Object> rows = new HashSet<>();
        rows.add(batch.get(first).row);
        // rows written (or possibly written) between first and the current index by writes that stay in place
        Set<Object> passed = new HashSet<>();
        boolean barrier = false;
        for (int j = first + 1; j < batch.size() && !barrier; j++) {
            if (done[j]) {
                continue;
            }
            Item<?> item = batch.get(j);
            boolean joins = item.kind != null && item.kind.name().equals(kind) && !rows.contains(item.row)
                    && !passed.contains(item.row);
            if (joins) {
                members.add(j);
                rows.add(item.row);
            } else if (item.row == null) {
                barrier = true;
            } else {
                passed.add(item.row);
            }
        }
        return members;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void runTogether(List<Item<?>> batch, List<Integer> members, Object[] results, int[] batched) {
        Kind kind = batch.get(members.get(0)).kind;
        List<Object> arguments = members.stream().map(member -> batch.get(member).argument).toList();
        List<?> outcomes = (List<?>) kind.together().apply(store, arguments);
        if (outcomes == null || outcomes.size() != arguments.size()) {
            throw new IllegalStateException("the store answered " + (outcomes == null ? "nothing" : outcomes.size()
                    + " outcomes") + " for a batch of " + arguments.size() + " " + kind.name() + " writes");
        }
        for (int k = 0; k < members.size(); k++) {
            results[members.get(k)] = outcomes.get(k);
        }
        batched[0]++;
        batched[1] += members.size();
    }

    /**
     * After a rolled-back batch: the write that threw (if one did) completes with its own failure; every other write
     * runs again alone. A failure of the transaction itself (BEGIN or COMMIT) has no thrower: all run again.
     */
    private static void runAloneAfterRollback(List<Item<?>> batch, int thrower, Throwable thrown) {
        for (int i = 0; i < batch.size(); i++) {
            if (i == thrower) {
                batch.get(i).result.completeExceptionally(thrown);
            } else {
                batch.get(i).runAlone();
            }
        }
    }

    private static <T> CompletableFuture<T> runAlone(Supplier<T> write) {
        try {
            return CompletableFuture.completedFuture(write.get());
        } catch (RuntimeException | Error e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The outcome of a queued write, or its own exception unwrapped. */
    static <T> T join(CompletableFuture<T> outcome) {
        try {
            return outcome.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /** Lets one more committer start while its batch runs past the stall bound. */
    private final class StallWatch {
        private boolean fired;
        private boolean ended;

        void fire() {
            synchronized (this) {
                if (ended) {
                    return;
                }
                fired = true;
                stalled.incrementAndGet();
            }
            if (!queue.isEmpty()) {
                startCommitterIfAllowed();
            }
        }

        synchronized void end() {
            ended = true;
            if (fired) {
                stalled.decrementAndGet();
            }
        }
    }

    private static final class Item<T> {
        /** The write alone. */
        final Supplier<T> write;
        /** The row it writes, or null when it may write any. */
        final Object row;
        /** Its kind when it can share a store call with others, else null. */
        final Kind<Object, T> kind;
        final Object argument;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Item(Object row, Supplier<T> write) {
            this.write = write;
            this.row = row;
            this.kind = null;
            this.argument = null;
        }

        @SuppressWarnings("unchecked")
        <A> Item(Kind<A, T> kind, A argument, TaskRepository store) {
            this.write = () -> kind.alone().apply(store, argument);
            this.row = kind.row().apply(argument);
            this.kind = (Kind<Object, T>) kind;
            this.argument = argument;
        }

        void runAlone() {
            try {
                result.complete(write.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }

        @SuppressWarnings("unchecked")
        void completeWith(Object value) {
            result.complete((T) value);
        }
    }
}
