package dev.mcptasks.core.runtime;

import dev.mcptasks.core.service.ServerDirectory;
import dev.mcptasks.core.service.SubmitClaims;
import dev.mcptasks.core.service.TaskDriverRegistry;
import dev.mcptasks.core.system.RandomIdGenerator;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.RandomSource;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import dev.mcptasks.ports.driver.TaskDriver;
import dev.mcptasks.ports.notification.NotificationSink;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkSubscription;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.ports.trace.Tracing;
import java.net.InetAddress;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control loop of one worker. A pass runs the cancel, submit, poll and notify scans in that order; the first
 * pass runs at start-up (which is also crash recovery). After that a pass starts when
 * <ul>
 *   <li>the store signals work arrival ({@link TaskRepository#onWorkArrival}: a task created, a cancel requested, an
 *       answer stored, by this process or another), so new work is claimed at once;</li>
 *   <li>a scan that used every slot it reserved (more rows may be due) sees half its slots free again: that scan
 *       runs again without waiting for the tick, so a backlog drains at the speed of its calls
 *       ({@link ScanBacklog});</li>
 *   <li>the tick, every {@code tickInterval}: the idle fallback that finds work due by time alone (a poll's next due
 *       time, a retry after backoff, a notification retry, another worker's expired lease), which nothing
 *       signals.</li>
 * </ul>
 * A pass that scans for cancellations first tells this worker's direct calls in flight of their cancel requests
 * ({@link DirectCallCancels}): their submit claims hold the rows, so no cancel claim could.
 * Passes are coalesced ({@link ScanRequests}): one runs at a time and requests made meanwhile make exactly one more.
 * A failing scan or record never stops the others or the loop; a failed scan waits for the tick. The worker
 * heartbeats itself into the workers table every third of {@code workerStaleAfter} (a failed heartbeat again after
 * the tick interval). Operations and passes run on the given executor, which must not run tasks on the caller's
 * thread and should not bound its threads below the slot count (a cached pool fits); renewals hold no executor
 * thread: they wait in the group commit.
 */
public final class WorkerRuntime {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerRuntime.class);

    private final WorkerId worker;
    private final RuntimeSettings settings;
    private final TaskRepository repository;
    private final Clock clock;
    private final Executor executor;
    private final RuntimeListener listener;
    private final Tracing tracing;
    private final IdGenerator ids;
    private final RuntimeCounters counters = new RuntimeCounters();
    private final CapacitySlots slots;
    private final PrincipalShares shares;
    private final BatchSupervisor supervisor;
    private final ClaimScanner scanner;
    private final NotificationDispatcher notifications;
    private final Transitions transitions;
    private final GroupCommit commits;
    private final ScanRequests requests;
    private final DirectCallCancels directCalls;
    private final ScanBacklog controlBacklog;
    private final ScanBacklog notifyBacklog;
    private volatile boolean stopping;
    /** Set by start: from then on, work arrivals and rescans start passes of their own. */
    private volatile boolean looping;
    private boolean started;
    private WorkSubscription arrivals;
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
        this(worker, settings, repository, drivers, servers, clock, random, new RandomIdGenerator(clock), executor,
                sink, listener);
    }

    /** @param ids makes the tokens this worker creates itself (a delivery it takes with its own result write) */
    public WorkerRuntime(WorkerId worker, RuntimeSettings settings, TaskRepository repository,
            TaskDriverRegistry drivers, ServerDirectory servers, Clock clock, RandomSource random, IdGenerator ids,
            Executor executor, NotificationSink sink, RuntimeListener listener) {
        this(worker, settings, repository, drivers, servers, clock, random, ids, executor, sink, listener,
                Tracing.NONE);
    }

    /**
     * @param tracing where each claim's span, its upstream requests' spans and its last write's span go; a claim's
     *     span continues the trace context stored with its task
     */
    public WorkerRuntime(WorkerId worker, RuntimeSettings settings, TaskRepository repository,
            TaskDriverRegistry drivers, ServerDirectory servers, Clock clock, RandomSource random, IdGenerator ids,
            Executor executor, NotificationSink sink, RuntimeListener listener, Tracing tracing) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
        this.worker = Objects.requireNonNull(worker, "worker");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.executor = Objects.requireNonNull(executor, "executor");
        // every component below writes through the group commit: claims' fenced writes share commits
        Objects.requireNonNull(listener, "listener");
        repository = new ChangeAnnouncingRepository(Objects.requireNonNull(repository, "repository"),
                listener::taskChanged);
        this.commits = new GroupCommit(repository, 1, clock, executor, counters, "worker-" + worker.value());
        repository = new GroupCommittingRepository(repository, commits);
        this.repository = repository;
        this.listener = listener;
        this.ids = Objects.requireNonNull(ids, "ids");
        this.transitions = new Transitions(worker, settings, Objects.requireNonNull(random, "random"), ids);
        this.directCalls = new DirectCallCancels(repository);
        SessionBindings bindings = new SessionBindings();
        TaskDriverRegistry bindingDrivers = sessionBinding(drivers, bindings);
        this.notifications = new NotificationDispatcher(worker, settings, repository,
                Objects.requireNonNull(sink, "sink"), clock, executor, listener, counters);
        // a result that takes its event's delivery hands it to the notify phase: no scan needs to find it
        ResultWrites results = notifications.resultWrites(repository);
        LostTaskVerdict lost = new LostTaskVerdict(worker, repository, repository, results, transitions,
                settings.workerStaleAfter(), bindings);
        Map<ClaimPhase, PhaseHandler> handlers = Map.of(
                ClaimPhase.SUBMIT, new SubmitHandler(worker, repository, results, bindingDrivers, servers,
                        transitions, directCalls, clock, executor, listener::callProgress),
                ClaimPhase.POLL, new PollHandler(repository, results, bindingDrivers, transitions, lost),
                ClaimPhase.CANCEL, new CancelHandler(repository, results, bindingDrivers, transitions, lost));
        this.slots = new CapacitySlots(settings.maxConcurrentControlCalls());
        this.shares = new PrincipalShares(PrincipalShares.of(settings.maxConcurrentControlCalls()));
        this.supervisor = new BatchSupervisor(clock, settings.drain(), slots, shares, listener, counters);
        this.scanner = new ClaimScanner(worker, settings, repository, clock, slots, shares, supervisor, counters,
                (claimed, claimedAtNanos) -> operation(claimed, claimedAtNanos, handlers));
        this.requests = new ScanRequests(executor, this::pass);
        this.controlBacklog = new ScanBacklog(slots, this::requestScans);
        this.notifyBacklog = new ScanBacklog(notifications.slots(), this::requestScans);
        slots.whenReleased(controlBacklog::slotsReleased, controlBacklog::reservationsReturned);
        notifications.slots().whenReleased(notifyBacklog::slotsReleased, notifyBacklog::reservationsReturned);
    }

    public WorkerId workerId() {
        return worker;
    }

    /**
     * Registers the worker, listens for work arrival, runs the first pass now (on the calling thread), then ticks
     * every {@code tickInterval}.
     */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException("worker " + worker + " was already started");
        }
        started = true;
        info = new WorkerInfo(worker, hostName(), ProcessHandle.current().pid(), clock.now());
        heartbeatWorker();
        looping = true;
        // subscribed before the first pass: work that arrives while it scans makes one more pass, never none
        arrivals = repository.onWorkArrival(this::workArrived);
        tick();
        scheduleTick();
    }

    /**
     * One whole pass on the calling thread: cancellations, then submissions, then polls, then notifications. A
     * worker that was not started runs only the passes it is told to (a scan that filled its slots is continued by
     * a started worker alone).
     */
    public void tick() {
        pass(Scan.ALL);
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
        closeArrivals();
        if (heartbeatTimer != null) {
            heartbeatTimer.cancel();
        }
        stopped = supervisor.awaitEnded()
                .thenCompose(ignored -> supervisor.cancel("worker " + worker + " is stopping"))
                .thenRunAsync(this::releaseDeliveriesAndDeregister, executor)
                .whenComplete((ignored, error) -> commits.stop());
        return stopped;
    }

    /** Whether the group commit has nothing queued or committing (tests wait for it, with the executor, to be quiet). */
    boolean commitsIdle() {
        return commits.idle();
    }

    /**
     * Lets creates of this process take their submit claims for this worker ({@link SubmitClaims}): a reservation
     * holds one slot, and the created row's operation starts at once, as if a scan had claimed it, without the
     * submit-attempt write (the create recorded it). While the worker is not running, every slot is held, or the
     * task's principal holds its share of them ({@link PrincipalShares}), nothing is reserved and the task is
     * created pending.
     */
    public SubmitClaims submitClaims() {
        return this::reserveSubmitClaim;
    }

    private Optional<SubmitClaims.Reservation> reserveSubmitClaim(String principal) {
        if (!looping || stopping || slots.reserve(1) == 0) {
            return Optional.empty();
        }
        if (!shares.tryTake(principal)) {
            slots.giveBack(1); // the principal's calls hold its share: the task waits, pending, for a slot of its own
            return Optional.empty();
        }
        // taken before the insert, whose lease starts at the store's now: the local lease view is never too long
        long claimedAtNanos = clock.nanoTime();
        CreateClaim claim = new CreateClaim(worker, ids.newClaimToken(), settings.lease());
        AtomicBoolean used = new AtomicBoolean();
        return Optional.of(new SubmitClaims.Reservation() {
            @Override
            public CreateClaim claim() {
                return claim;
            }

            @Override
            public <T> T commit(TaskId row, Supplier<T> create) {
                return commits.runOn(row, create);
            }

            @Override
            public void created(TaskRecord row) {
                if (used.compareAndSet(false, true)) {
                    // the operation counts against the share from its launch: the reservation's count goes
                    if (!scanner.admit(ClaimedTask.created(row), claimedAtNanos)) {
                        slots.giveBack(1);
                    }
                    shares.release(principal);
                }
            }

            @Override
            public void abandoned() {
                if (used.compareAndSet(false, true)) {
                    slots.giveBack(1);
                    shares.release(principal);
                }
            }
        });
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
                transitions, listener, counters, tracing);
    }

    /** The same drivers, reporting tasks of servers this worker found session-bound as process-local. */
    private static TaskDriverRegistry sessionBinding(TaskDriverRegistry drivers, SessionBindings bindings) {
        List<TaskDriver> wrapped = drivers.driverNames().stream()
                .map(name -> (TaskDriver) new SessionBindingDriver(drivers.driverNamed(name), bindings))
                .toList();
        return new TaskDriverRegistry(wrapped, drivers.servers());
    }

    /** The scans of {@code scans}, in pass order; stops early once the worker is stopping. */
    private void pass(Set<Scan> scans) {
        if (scans.contains(Scan.CANCEL) && !stopping) {
            // cancel requests for this worker's direct calls in flight, which no cancel claim can take
            directCalls.check();
        }
        for (Scan scan : Scan.values()) {
            if (stopping) {
                return;
            }
            if (scans.contains(scan)) {
                scan(scan);
            }
        }
        if (scans.containsAll(Scan.ALL)) {
            listener.tickFinished();
        }
    }

    private void scan(Scan scan) {
        ScanBacklog backlog = scan == Scan.NOTIFY ? notifyBacklog : controlBacklog;
        backlog.scanning(scan);
        ScanResult result;
        try {
            result = scan == Scan.NOTIFY ? notifications.dispatch() : scanner.scan(scan.phase());
        } catch (RuntimeException e) {
            // its backlog mark stays cleared: a store error backs off to the tick, never a loop of failing scans
            LOG.warn("worker {}: the {} scan failed; the next tick tries again: {}", worker, scan.label(),
                    e.toString());
            return;
        }
        backlog.scanned(scan, result);
        if (result.heldBack() > 0) {
            // rows of other principals may be due behind the ones given back, and slots are free for them now: the
            // next scan leaves the principal at its share out, so this never repeats for the same rows
            requestScans(EnumSet.of(scan));
        }
    }

    /** Asks for a pass (coalesced) once the worker runs its loop; called by timers, the store and slot releases. */
    private void requestScans(Set<Scan> scans) {
        if (looping && !stopping) {
            requests.request(scans);
        }
    }

    /** The store's work-arrival signal, on a store thread: only records the request, never scans here. */
    private void workArrived() {
        try {
            requestScans(Scan.ALL);
        } catch (RuntimeException e) {
            LOG.warn("worker {}: could not request a pass after a work arrival; the tick finds the work: {}", worker,
                    e.toString());
        }
    }

    private void closeArrivals() {
        if (arrivals == null) {
            return;
        }
        try {
            arrivals.close();
        } catch (RuntimeException e) {
            LOG.warn("worker {}: closing the work-arrival subscription failed: {}", worker, e.toString());
        }
    }

    /** The tick timer: a whole pass (coalesced with any pass running), then the next tick. */
    private synchronized void scheduleTick() {
        if (!stopping) {
            tickTimer = clock.schedule(settings.tickInterval(), () -> {
                requestScans(Scan.ALL);
                scheduleTick();
            });
        }
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
