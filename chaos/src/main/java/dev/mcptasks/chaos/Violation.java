package dev.mcptasks.chaos;

/**
 * One broken invariant found after a chaos run.
 *
 * @param kind a stable short name (e.g. {@code duplicate_create}), used to count violations by kind
 * @param subject what it is about: a local task id, a remote task id, a worker tag or a process id
 * @param detail what was seen, for a human
 */
public record Violation(String kind, String subject, String detail) {
    @Override
    public String toString() {
        return kind + " " + subject + ": " + detail;
    }
}
