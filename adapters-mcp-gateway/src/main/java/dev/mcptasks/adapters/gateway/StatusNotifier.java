package dev.mcptasks.adapters.gateway;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code notifications/tasks/status} (2025-11-25) to every session that follows a task (the one that created it, and
 * any session of its principal that read it with {@code tasks/get}), each time the Task it would read changes (status
 * or message), until the task ends or the session closes. A session follows a task once, however often it reads it.
 * Advisory: clients poll anyway, and a session lost with a gateway restart loses only these.
 */
final class StatusNotifier {
    static final String METHOD = "notifications/tasks/status";

    private final TaskWatcher watcher;
    private final TaskShapes shapes;
    private final Map<FrontSession, Set<TaskWatcher.Watch>> bySession = new ConcurrentHashMap<>();
    /** The tasks each session follows, so a second read does not follow twice. */
    private final Map<FrontSession, Set<TaskId>> followed = new ConcurrentHashMap<>();
    /** Closed sessions, held weakly: an entry matters only while a request of the session is still running. */
    private final Set<FrontSession> closedSessions = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));

    StatusNotifier(TaskWatcher watcher, TaskShapes shapes) {
        this.watcher = watcher;
        this.shapes = shapes;
    }

    /** Follows {@code created} (the row as the CreateTaskResult showed it) for {@code session}. */
    void follow(FrontSession session, String principal, TaskRecord created) {
        if (created.status().isTerminal()
                || !followed.computeIfAbsent(session, key -> ConcurrentHashMap.newKeySet()).add(created.id())) {
            return;
        }
        Set<TaskWatcher.Watch> watches = bySession.computeIfAbsent(session, key -> ConcurrentHashMap.newKeySet());
        String[] shown = {shown(created)};
        TaskWatcher.Watch[] self = new TaskWatcher.Watch[1];
        self[0] = watcher.watch(principal, created.id(), row -> {
            if (row.isEmpty()) {
                return stop(session, self[0], created.id());
            }
            String now = shown(row.get());
            if (!now.equals(shown[0])) {
                shown[0] = now;
                session.notify(FrontJson.notification(METHOD, shapes.task2025(row.get())));
            }
            return row.get().status().isTerminal() && stop(session, self[0], created.id());
        });
        watches.add(self[0]);
        // a task created by a request that was still running when its session closed is not followed: registered
        // first, checked second, while closed() marks first and cancels second
        if (closedSessions.contains(session)) {
            self[0].cancel();
            watches.remove(self[0]);
        }
    }

    void closed(FrontSession session) {
        closedSessions.add(session);
        followed.remove(session);
        Set<TaskWatcher.Watch> watches = bySession.remove(session);
        if (watches != null) {
            watches.forEach(TaskWatcher.Watch::cancel);
        }
    }

    private boolean stop(FrontSession session, TaskWatcher.Watch watch, TaskId id) {
        Set<TaskId> ids = followed.get(session);
        if (ids != null) {
            ids.remove(id);
        }
        Set<TaskWatcher.Watch> watches = bySession.get(session);
        if (watches != null && watch != null) {
            watches.remove(watch);
        }
        return true;
    }

    /** What a client sees change: the status and the message of the Task. */
    private String shown(TaskRecord row) {
        var task = shapes.task2025(row);
        return task.path("status").asText() + "\n" + Objects.toString(task.path("statusMessage").textValue(), "");
    }
}
