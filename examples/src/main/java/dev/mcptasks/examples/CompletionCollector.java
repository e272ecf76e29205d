package dev.mcptasks.examples;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A custom {@link NotificationSink}: logs each attention event in one line and collects the ones that end a task,
 * so a caller can wait for a task's end ({@link #completion}) instead of polling the store. A task's event is
 * delivered only after its terminal row committed, so a completion seen here can be read back from the store.
 * Delivery is at least once (a delivery whose lease lapsed is made again with the same frozen event): the first
 * terminal event of a task completes its future; a repeat is kept in {@link #completions()} but changes nothing.
 */
public final class CompletionCollector implements NotificationSink {
    private static final Logger LOG = LoggerFactory.getLogger(CompletionCollector.class);
    private static final CompletableFuture<DeliveryResult> DELIVERED =
            CompletableFuture.completedFuture(new DeliveryResult.Delivered());

    /** The end of one task as its event told it. */
    public record Completion(TaskId taskId, String server, String tool, TaskStatus status, String error) {}

    private final ConcurrentMap<TaskId, CompletableFuture<Completion>> byTask = new ConcurrentHashMap<>();
    private final List<Completion> received = new CopyOnWriteArrayList<>();

    @Override
    public CompletableFuture<DeliveryResult> deliver(Notification notification) {
        Completion completion;
        try {
            completion = parse(notification.eventJson());
        } catch (DomainException e) {
            // a malformed event stays malformed however often it is retried: dead-letter it at once with the reason
            LOG.warn("event {} is malformed: {}", notification.idempotencyKey(), e.getMessage());
            return CompletableFuture.completedFuture(new DeliveryResult.Gone("event "
                    + notification.idempotencyKey() + " is malformed: " + e.getMessage()));
        }
        LOG.info("event {}: {}", notification.idempotencyKey(), notification.eventJson());
        if (completion != null) {
            received.add(completion);
            completion(completion.taskId()).complete(completion);
        }
        return DELIVERED;
    }

    /** Completes with the first terminal event of {@code task}, whether it arrived before this call or after. */
    public CompletableFuture<Completion> completion(TaskId task) {
        return byTask.computeIfAbsent(task, any -> new CompletableFuture<>());
    }

    /** Every terminal event delivered so far, repeats included, in delivery order. */
    public List<Completion> completions() {
        return List.copyOf(received);
    }

    /** The completion an event tells of, or null for an event that ends nothing (input required, degraded). */
    private static Completion parse(String eventJson) {
        if (!(StrictJson.parse(eventJson) instanceof Map<?, ?> event)) {
            throw new DomainException("the event is not a JSON object");
        }
        if (!"task.status".equals(event.get("type"))) {
            return null;
        }
        TaskStatus status = TaskStatus.fromWire(text(event, "status"));
        if (!status.isTerminal()) {
            return null;
        }
        String taskId = text(event, "taskId");
        if (taskId == null) {
            throw new DomainException("a task.status event without a taskId");
        }
        return new Completion(TaskId.of(taskId), text(event, "server"), text(event, "tool"), status,
                text(event, "error"));
    }

    private static String text(Map<?, ?> event, String key) {
        return event.get(key) instanceof String value ? value : null;
    }
}
