package dev.mcptasks.app.runtime;

import dev.mcptasks.app.service.ServerDirectory;
import dev.mcptasks.app.service.TaskDriverRegistry;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerInfo;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control loop of one worker. Each tick runs the cancel, submit, poll and notify phases in that order; the first tick
 * runs at start-up (which is also crash recovery), then one every {@code tickInterval}. A failing phase or record
 * never stops the others or the loop. The worker heartbeats itself into the workers table every third of
 * {@code workerStaleAfter} (a failed heartbeat again after the tick interval). Operations run on the given
 * executor, which must not run tasks on the caller's thread and should not bound its threads below the slot count
 * plus hung renewals (a cached pool fits).
 */
public final class WorkerRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);
    private static final List<ClaimPhase> PHASES = List.of(ClaimPhase.CANCEL, ClaimPhase.SUBMIT, ClaimPhase.POLL);

    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final TaskRepository repository;
    private final Clock clock;
    private final Executor executor;
    private final RuntimeListener listener;
    private final RuntimeCounters counters = new RuntimeCounters();
    private final CapacitySlots slots;
    private final BatchSupervisor supervisor;
    private final ClaimScanner scanner;
    private final NotificationDispatcher notifications;
    private final Transitions transitions;
    private final GroupCommit commits;
    private final AtomicBoolean ticking = new AtomicBoolean();
    private volatile boolean stopping;
    private boolean started;
    private WorkerInfo info;
    private Clock.Timer tickTimer;
    private Clock.Timer heartbeatTimer;
    private CompletableFuture<Void> stopped;

    public WorkerRuntime(WorkerId worker, RuntimeSettings settings, TaskRepository repository,
            TaskDriverRegistry drivers, ServerDirectory servers, Clock clock, RandomSource random, Executor executor) {
        this(worker, settings, repository, drivers, servers, clock, random, executor, RuntimeListener.NONE);
    }

    public WorkerRuntime(WorkerId worker, RuntimeSettings settings, TaskRepository repository,
            TaskDriverRegistry drivers, ServerDirectory servers, Clock clock, RandomSource random, Executor executor,
            RuntimeListener listener) {
        this(worker, settings, repository, drivers, servers, clock, random, executor, new LogNotificationSink(),
                listener);
    }

    /**
     * @param sink where the notify phase delivers attention events
     * @param listener observes per-claim milestones (metrics, tests)
     */
    public WorkerRuntime(WorkerId worker, RuntimeSettings settings, TaskRepository repository,
            TaskDriverRegistry drivers, ServerDirectory servers, Clock clock, RandomSource random, Executor executor,
            NotificationSink sink, RuntimeListener listener) {
        this.worker = Objects.requireNonNull(worker, "worker");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.executor = Objects.requireNonNull(executor, "executor");
        // every component below writes through the group commit: claims' fenced writes share commits
        this.commits = new GroupCommit(Objects.requireNonNull(repository, "repository"), 1, clock, executor, counters,
                "worker-" + worker.value());
        repository = new GroupCommittingRepository(repository, commits);
        this.repository = repository;
        this.listener = Objects.requireNonNull(listener, "listener");
        this.transitions = new Transitions(settings, Objects.requireNonNull(random, "random"));
        SessionBindings bindings = new SessionBindings();
        TaskDriverRegistry bindingDrivers = sessionBinding(drivers, bindings);
        LostTaskVerdict lost = new LostTaskVerdict(worker, repository, transitions, settings.workerStaleAfter(),
                bindings);
        Map<ClaimPhase, PhaseHandler> handlers = Map.of(
                ClaimPhase.SUBMIT, new SubmitHandler(worker, repository, bindingDrivers, servers, transitions),
                ClaimPhase.POLL, new PollHandler(repository, bindingDrivers, transitions, lost),
                ClaimPhase.CANCEL, new CancelHandler(repository, bindingDrivers, transitions, lost));
        this.slots = new CapacitySlots(settings.maxConcurrentControlCalls());
        this.supervisor = new BatchSupervisor(clock, settings.drain(), slots, listener, counters);
        this.notifications = new NotificationDispatcher(worker, settings, repository,
                Objects.requireNonNull(sink, "sink"), clock, executor, listener, counters);
        this.scanner = new ClaimScanner(worker, settings, repository, clock, slots, supervisor, counters,
                (claimed, claimedAtNanos) -> operation(claimed, claimedAtNanos, handlers));
    }

    public WorkerId workerId() {
        return worker;
    }

    /** Registers the worker, runs the first tick now, then ticks every {@code tickInterval}. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("worker " + worker + " was already started");
        }
        started = true;
        info = new WorkerInfo(worker, hostName(), ProcessHandle.current().pid(), clock.now());
        heartbeatWorker();
        tick();
        scheduleTick();
    }

    /** One pass: cancellations, then submissions, then polls, then notifications. */
    public void tick() {
        if (stopping) {
            return;
        }
        for (ClaimPhase phase : PHASES) {
            try {
                scanner.scan(phase);
            } catch (RuntimeException e) {
                LOG.warn("worker {}: the {} scan failed; the next tick tries again: {}", worker, phase.wireName(),
                        e.toString());
            }
        }
        try {
            notifications.dispatch();
        } catch (RuntimeException e) {
            LOG.warn("worker {}: the notify scan failed; the next tick tries again: {}", worker, e.toString());
        }
        listener.tickFinished();
    }

    /**
     * Stops claiming, lets running operations end within the drain bound, then gives up the claims that remain
     * (cancellation release: they are due again at once for any worker), releases the notification claims still
     * waiting for their sink, and deregisters the worker. Calls that
     * ignore cancellation finish in the background. Completes when that is done; idempotent.
     */
    public synchronized CompletableFuture<Void> stop() {
        if (stopped != null) {
            return stopped;
        }
        stopping = true;
        if (tickTimer != null) {
            tickTimer.cancel();
        }
        if (heartbeatTimer != null) {
            heartbeatTimer.cancel();
        }
        stopped = supervisor.awaitEnded()
                .thenCompose(ignored -> supervisor.cancel("worker " + worker + " is stopping"))
                .thenRunAsync(this::releaseDeliveriesAndDeregister, executor)
                .whenComplete((ignored, error) -> commits.stop());
        return stopped;
    }

    public RuntimeMetrics metrics() {
        return counters.snapshot(slots);
    }

    BatchSupervisor supervisor() {
        return supervisor;
    }

    private ControlOperation operation(ClaimedTask claimed, long claimedAtNanos,
            Map<ClaimPhase, PhaseHandler> handlers) {
        PhaseHandler handler = handlers.get(claimed.claim().phase());
        return new ControlOperation(claimed, claimedAtNanos, handler, repository, clock, executor, settings,
                transitions, listener, counters);
    }

    /** The same drivers, reporting tasks of servers this worker found session-bound as process-local. */
    private static TaskDriverRegistry sessionBinding(TaskDriverRegistry drivers, SessionBindings bindings) {
        List<TaskDriver> wrapped = drivers.driverNames().stream()
                .map(name -> (TaskDriver) new SessionBindingDriver(drivers.driverNamed(name), bindings))
                .toList();
        return new TaskDriverRegistry(wrapped, drivers.servers());
    }

    private synchronized void scheduleTick() {
        if (!stopping) {
            tickTimer = clock.schedule(settings.tickInterval(), () -> executor.execute(this::timedTick));
        }
    }

    private void timedTick() {
        // a slow tick is not overlapped by the next timer; reservations make overlap safe, this keeps it rare
        if (ticking.compareAndSet(false, true)) {
            try {
                tick();
            } catch (RuntimeException e) {
                LOG.warn("worker {}: tick failed", worker, e);
            } finally {
                ticking.set(false);
            }
        }
        scheduleTick();
    }

    /**
     * Stamps this worker alive (the store stamps it with its own clock). A failed heartbeat is retried at the tick
     * interval rather than a third of the bound later: peers judge liveness by the store's clock alone, so every
     * missed stamp brings the moment they may take this worker's process-local tasks closer.
     */
    private void heartbeatWorker() {
        Duration next = settings.workerStaleAfter().dividedBy(3);
        try {
            repository.heartbeat(info);
        } catch (RuntimeException e) {
            LOG.warn("worker {}: heartbeat failed: {}", worker, e.toString());
            next = next.compareTo(settings.tickInterval()) < 0 ? next : settings.tickInterval();
        }
        synchronized (this) {
            if (!stopping) {
                heartbeatTimer = clock.schedule(next, () -> executor.execute(this::heartbeatWorker));
            }
        }
    }

    private void releaseDeliveriesAndDeregister() {
        try {
            notifications.stop();
        } catch (RuntimeException e) {
            LOG.warn("worker {}: releasing notification claims failed: {}", worker, e.toString());
        }
        deregister();
    }

    private void deregister() {
        try {
            repository.removeWorker(worker);
        } catch (RuntimeException e) {
            LOG.warn("worker {}: could not deregister: {}", worker, e.toString());
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }
}
