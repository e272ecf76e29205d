package dev.mcptasks.domain;

/** The local, opaque identity of a task row, returned to callers at submission. */
public record TaskId(String value) implements Comparable<TaskId> {
    public TaskId {
        Identifiers.require("task id", value);
    }

    public static TaskId of(String value) {
        return new TaskId(value);
    }

    @Override
    public int compareTo(TaskId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
