package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Task records that forward every call to {@link #delegate()}: a decorator overrides only the calls it watches. */
public abstract class ForwardingTaskRecords implements TaskRecords {
    private final TaskRecords delegate;

    protected ForwardingTaskRecords(TaskRecords delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The records the next call goes to. */
    protected TaskRecords delegate() {
        return delegate;
    }

    @Override
    public TaskRecord create(NewTask task) {
        return delegate().create(task);
    }

    @Override
    public CancelRequestOutcome requestCancel(TaskId id) {
        return delegate().requestCancel(id);
    }

    @Override
    public AnswerOutcome answerInput(TaskId id, String key, String responseJson) {
        return delegate().answerInput(id, key, responseJson);
    }

    @Override
    public Optional<TaskRecord> find(TaskId id) {
        return delegate().find(id);
    }

    @Override
    public List<TaskRecord> list(TaskQuery query) {
        return delegate().list(query);
    }

    @Override
    public Map<TaskStatus, Long> countByStatus() {
        return delegate().countByStatus();
    }

    @Override
    public TaskFigures figures() {
        return delegate().figures();
    }
}
