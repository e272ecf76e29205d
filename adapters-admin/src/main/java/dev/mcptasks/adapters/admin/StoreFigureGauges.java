package dev.mcptasks.adapters.admin;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.repository.TaskFigures;
import dev.mcptasks.ports.repository.TaskRepository;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's figures as gauges: tasks by status and server, the age of the oldest due task per phase, and the
 * outbox. Read at scrape, at most once per {@link #REFRESH} however many scrapers ask: the grouped queries are cheap
 * but not free. A failed read keeps the last figures (the store's own health is {@code /readyz}'s business).
 */
final class StoreFigureGauges {
    static final Duration REFRESH = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(StoreFigureGauges.class);

    private final TaskRepository repository;
    private final Clock clock;
    private final MultiGauge tasks;
    private final ReentrantLock refreshing = new ReentrantLock();
    /** Servers seen so far: each keeps a series for every status (zero included) once it has had a task. */
    private final Set<String> servers = new LinkedHashSet<>();
    private volatile TaskFigures figures = new TaskFigures(List.of(), java.util.Map.of(), java.util.Map.of());
    private long readAtNanos;
    private boolean read;

    StoreFigureGauges(TaskRepository repository, Clock clock, MeterRegistry registry) {
        this.repository = repository;
        this.clock = clock;
        this.tasks = MultiGauge.builder(MicrometerMetrics.PREFIX + "tasks")
                .description("Tasks in the store by status and server").register(registry);
        for (ClaimPhase phase : List.of(ClaimPhase.SUBMIT, ClaimPhase.POLL, ClaimPhase.CANCEL)) {
            Gauge.builder(MicrometerMetrics.PREFIX + "oldest_due_age_seconds", () -> dueAgeSeconds(phase))
                    .description("How long the oldest due task of a phase has waited (queue lag)")
                    .tag("phase", phase.wireName()).register(registry);
        }
        Gauge.builder(MicrometerMetrics.PREFIX + "outbox_backlog", () -> backlog())
                .description("Notifications waiting for delivery").register(registry);
        Gauge.builder(MicrometerMetrics.PREFIX + "dead_letters",
                        () -> figures.outbox().getOrDefault(NotificationStatus.DEAD_LETTER, 0L))
                .description("Notifications given up (dead letters) in the store").register(registry);
    }

    /** Reads the figures again unless they are fresh or another scrape is reading them. */
    void refreshIfStale() {
        if (!refreshing.tryLock()) {
            return;
        }
        try {
            long now = clock.nanoTime();
            if (read && now - readAtNanos < REFRESH.toNanos()) {
                return;
            }
            TaskFigures fresh = repository.figures();
            figures = fresh;
            readAtNanos = now;
            read = true;
            publish(fresh);
        } catch (RuntimeException e) {
            LOG.debug("store figures not read, keeping the last ones: {}", e.toString());
        } finally {
            refreshing.unlock();
        }
    }

    private void publish(TaskFigures fresh) {
        for (TaskFigures.Count count : fresh.counts()) {
            servers.add(count.server());
        }
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (String server : servers) {
            for (TaskStatus status : TaskStatus.values()) {
                long n = fresh.counts().stream()
                        .filter(c -> c.server().equals(server) && c.status() == status)
                        .mapToLong(TaskFigures.Count::tasks).sum();
                rows.add(MultiGauge.Row.of(Tags.of("status", status.wireName(), "server", server), n));
            }
        }
        tasks.register(rows, true);
    }

    private double dueAgeSeconds(ClaimPhase phase) {
        Instant due = figures.earliestDue().get(phase);
        if (due == null) {
            return 0;
        }
        Duration age = Duration.between(due, clock.now());
        return age.isNegative() ? 0 : age.toMillis() / 1000.0;
    }

    private double backlog() {
        return figures.outbox().entrySet().stream()
                .filter(e -> NotificationStatus.CLAIMABLE.contains(e.getKey()))
                .mapToLong(java.util.Map.Entry::getValue).sum();
    }
}
