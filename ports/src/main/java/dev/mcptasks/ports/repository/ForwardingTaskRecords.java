package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Task records that forward every call to {@link #delegate()}: a decorator overrides only the calls it watches. */
public interface ForwardingTaskRecords extends TaskRecords {
    /** The records the next call goes to. */
    TaskRecords delegate();

    @Override
    default TaskRecord create(NewTask task) {
        return delegate().create(task);
    }

    @Override
    default CancelRequestOutcome requestCancel(TaskId id) {
        return delegate().requestCancel(id);
    }

    @Override
    default AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        return delegate().answerInput(id, key, responseJson);
    }

    @Override
    default Optional<TaskRecord> find(TaskId id) {
        return delegate().find(id);
    }

    @Override
    default List<TaskRecord> findAll(Collection<TaskId> ids) {
        return delegate().findAll(ids);
    }

    @Override
    default List<TaskRecord> list(TaskQuery query) {
        return delegate().list(query);
    }

    @Override
    default Map<TaskStatus, Long> countByStatus() {
        return delegate().countByStatus();
    }

    @Override
    default TaskFigures figures() {
        return delegate().figures();
    }
}
