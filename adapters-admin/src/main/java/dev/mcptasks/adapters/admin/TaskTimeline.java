package dev.mcptasks.adapters.admin;

import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A task's timeline from what the store keeps: the row's own instants (created, first submit attempt, last poll,
 * cancel request, last update, completion, lease expiry, a dead letter's death), its claim history (submit and
 * cancel claims, and takeovers with the worker whose lease expired) and the audit records of the task. Events at the
 * same instant keep that order (a task's first claim often shares its creation's millisecond).
 */
final class TaskTimeline {
    /** One dated event. */
    record Event(Instant at, String what, String detail) {}

    private TaskTimeline() {
    }

    static List<Event> of(TaskRecord task, List<TaskEvent> history, List<AuditRecord> audit) {
        List<Event> events = new ArrayList<>();
        TaskRecord.Control control = task.control();
        TaskRecord.State state = task.state();
        add(events, task.definition().createdAt(), "created", task.definition().serverName() + "/"
                + task.definition().toolName() + (task.definition().principal() == null ? ""
                        : " for " + task.definition().principal()));
        add(events, control.submitAttemptedAt(), "submit attempted", "submit attempts: "
                + control.submitAttemptCount() + (state.remoteTaskId() == null ? ""
                        : "; remote task " + state.remoteTaskId()));
        add(events, control.lastPolledAt(), "last polled", "poll attempts: " + control.pollAttemptCount()
                + (control.lastPollError() == null ? "" : "; last error: " + control.lastPollError()));
        add(events, control.cancelRequestedAt(), "cancel requested", "cancel attempts: "
                + control.cancelAttemptCount());
        add(events, state.updatedAt(), "status " + task.status().wireName(), state.statusMessage());
        add(events, state.completedAt(), "ended " + task.status().wireName(),
                state.errorCode() == null ? null : state.errorCode() + ": " + state.error());
        if (task.lease().isHeld()) {
            add(events, task.lease().expiresAt(), "lease expires", task.lease().phase().wireName() + " claim held by "
                    + task.lease().owner());
        }
        if (task.outbox().status() == dev.mcptasks.domain.NotificationStatus.DEAD_LETTER) {
            add(events, task.outbox().nextAt(), "notification dead-lettered", task.outbox().error());
        }
        for (TaskEvent event : history) {
            add(events, event.at(), claim(event), detail(event));
        }
        for (AuditRecord record : audit) {
            add(events, record.at(), record.action().wireName() + " by " + record.principal() + " ("
                    + record.channel().wireName() + ")", record.detail());
        }
        events.sort(Comparator.comparing(Event::at));
        return events;
    }

    private static String claim(TaskEvent event) {
        return (event.kind() == TaskEvent.Kind.TAKEN_OVER ? "taken over: " : "claimed: ") + event.phase().wireName()
                + " by " + event.worker().value();
    }

    private static String detail(TaskEvent event) {
        return event.kind() == TaskEvent.Kind.TAKEN_OVER ? "the " + event.previousPhase().wireName()
                + " lease of " + event.previousOwner().value() + " had expired" : null;
    }

    private static void add(List<Event> events, Instant at, String what, String detail) {
        if (at != null) {
            events.add(new Event(at, what, detail));
        }
    }
}
