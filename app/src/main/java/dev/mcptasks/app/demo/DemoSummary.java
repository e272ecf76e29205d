package dev.mcptasks.app.demo;

import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The demo's closing report: outcomes per group of tasks, and the invariant check that decides the exit code. */
final class DemoSummary {
    /** One checked invariant. */
    record Check(String description, boolean holds) {}

    private DemoSummary() {}

    /** Prints outcomes per group ({@code status} or {@code status/error_code}), in scenario order. */
    static void printOutcomes(PrintWriter out, Map<TaskRecord, String> groups) {
        Map<String, Map<String, Integer>> byGroup = new LinkedHashMap<>();
        groups.forEach((task, group) -> byGroup.computeIfAbsent(group, g -> new TreeMap<>())
                .merge(outcome(task), 1, Integer::sum));
        int width = byGroup.keySet().stream().mapToInt(String::length).max().orElse(5);
        out.printf("%-" + width + "s  %5s  %s%n", "GROUP", "TASKS", "OUTCOMES");
        byGroup.forEach((group, outcomes) -> {
            List<String> parts = new ArrayList<>();
            outcomes.forEach((outcome, count) -> parts.add(outcome + " " + count));
            out.printf("%-" + width + "s  %5d  %s%n", group,
                    outcomes.values().stream().mapToInt(Integer::intValue).sum(), String.join(", ", parts));
        });
    }

    static String outcome(TaskRecord task) {
        return task.state().errorCode() == null ? task.status().wireName()
                : task.status().wireName() + "/" + task.state().errorCode();
    }

    /** What an unusual outcome means, for each one that occurred (and only those). */
    static List<String> explanations(java.util.Collection<TaskRecord> tasks) {
        Map<String, String> meanings = new LinkedHashMap<>();
        meanings.put(ErrorCodes.REMOTE_TASK_LOST, "the task lived in the crashed worker's stdio server");
        meanings.put(ErrorCodes.SUBMIT_OUTCOME_UNKNOWN, "it may have been sent when the worker died (atMostOnce)");
        List<String> lines = new ArrayList<>();
        meanings.forEach((code, meaning) -> {
            if (tasks.stream().anyMatch(task -> code.equals(task.state().errorCode()))) {
                lines.add(code + ": " + meaning + ".");
            }
        });
        return lines;
    }

    static List<Check> checks(List<TaskRecord> tasks, AuditingRepository audit) {
        long terminal = tasks.stream().filter(task -> task.status().isTerminal()).count();
        List<TaskRecord> completed = tasks.stream().filter(task -> task.status() == TaskStatus.COMPLETED).toList();
        long withResult = completed.stream().filter(task -> task.state().resultJson() != null).count();
        return List.of(
                new Check("every task is terminal (" + terminal + "/" + tasks.size() + ")", terminal == tasks.size()),
                new Check("every completed task has its result (" + withResult + "/" + completed.size() + ")",
                        withResult == completed.size()),
                new Check("no write from a stale claim was accepted (" + audit.staleAttempts()
                        + " stale writes attempted, " + audit.staleAccepted() + " accepted)",
                        audit.staleAccepted() == 0));
    }
}
