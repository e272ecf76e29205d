package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.audit.AuditAction;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.TaskEvent;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A task's timeline from what the store keeps: the row's own instants (created, first submit attempt, last poll,
 * cancel request, last update, completion, lease expiry), its claim history (submit and cancel claims, and takeovers
 * with the worker whose lease expired), its input round (the request waiting now; every answer, from the audit
 * records), its notification (queued, retry due, delivered, dead-lettered, at the outbox's own instant) and the
 * audit records of the task. Polls are one event, the last, with their count: the row keeps no time of the others,
 * and recording one would cost a store write per poll. Events at the same instant keep that order (a task's first
 * claim often shares its creation's millisecond).
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
        if (task.status() == TaskStatus.INPUT_REQUIRED) {
            add(events, state.updatedAt(), "input requested", inputRound(task));
        } else {
            add(events, state.updatedAt(), "status " + task.status().wireName(), state.statusMessage());
        }
        add(events, state.completedAt(), "ended " + task.status().wireName(),
                state.errorCode() == null ? null : state.errorCode() + ": " + state.error());
        if (task.lease().isHeld()) {
            add(events, task.lease().expiresAt(), "lease expires", task.lease().phase().wireName() + " claim held by "
                    + task.lease().owner());
        }
        notification(events, task.outbox());
        for (TaskEvent event : history) {
            add(events, event.at(), claim(event), detail(event));
        }
        for (AuditRecord record : audit) {
            String what = record.action() == AuditAction.ANSWER_INPUT ? "input answered"
                    : record.action().wireName();
            add(events, record.at(), what + " by " + record.principal() + " (" + record.channel().wireName() + ")",
                    record.detail());
        }
        events.sort(Comparator.comparing(Event::at));
        return events;
    }

    /** The requests waiting for an answer, and the answers stored but not yet sent to the server. */
    private static String inputRound(TaskRecord task) {
        List<String> requests = new ArrayList<>();
        for (InputRequests.InputRequest request : InputRequests.of(task)) {
            requests.add(request.key() + (request.message() == null ? "" : " (" + request.message() + ")"));
        }
        String detail = requests.isEmpty() ? task.state().statusMessage() : String.join(", ", requests);
        Set<String> answered = InputRequests.pendingAnswerKeys(task);
        return answered.isEmpty() ? detail : detail + "; answered, waiting to be sent: " + String.join(", ",
                new TreeSet<>(answered));
    }

    /**
     * The notification as the outbox row holds it: its status with the one instant the row keeps (when the event fell
     * due, when a retry is due, when it died); a delivery's own time is not kept, so a delivered event is dated when it
     * fell due.
     */
    private static void notification(List<Event> events, TaskRecord.Outbox outbox) {
        String attempts = outbox.attemptCount() == 0 ? "" : ", " + outbox.attemptCount() + " failed attempts";
        switch (outbox.status()) {
            case PENDING, CLAIMED, DISPATCHED -> add(events, outbox.nextAt(), "notification queued", "event "
                    + outbox.eventVersion() + (outbox.status().isInFlight() ? ", being delivered" : "") + attempts);
            case RETRY -> add(events, outbox.nextAt(), "notification retry due", "event " + outbox.dispatchVersion()
                    + attempts + "; last error: " + outbox.error());
            case DELIVERED -> add(events, outbox.nextAt(), "notification delivered", "event "
                    + outbox.notifiedVersion() + attempts + " (dated when it fell due)");
            case DEAD_LETTER -> add(events, outbox.nextAt(), "notification dead-lettered", outbox.error());
            default -> { }
        }
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
