package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Compares every task row with what the server saw: every task terminal; a completed task holds the server's result;
 * no task is reported cancelled, completed or failed when the server saw otherwise; no task was created twice under
 * {@code atMostOnce}; a shared (not session-bound) server never loses a task, so {@code remote_task_lost} is wrong.
 *
 * <p>The 2026-07-28 tasks extension (a row whose protocol version says so) differs in two ways. A cancel is only an
 * acknowledgement: the task is polled to its real end, so a row the user cancelled may end {@code completed} (or
 * {@code failed}) when the server's task did; that is counted, not a violation, while {@code cancelled} over a task the
 * server completed stays one. And a {@code tools/call} may finish at once without a task ({@code resultType}
 * {@code complete}): a completed row without a remote id is then legitimate, provided the server journaled no task
 * for its key. A row must be on the generation its remote task was created on ({@code generation_mismatch}).
 */
public final class StoreChecks {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StoreChecks() {}

    public static CheckResult check(List<StoreRow> rows, ServerJournal journal, boolean atMostOnce) {
        CheckResult.Builder result = new CheckResult.Builder();
        Map<String, List<ServerJournal.Creation>> createdByKey = journal.creations().stream()
                .filter(creation -> creation.key() != null)
                .collect(Collectors.groupingBy(ServerJournal.Creation::key));
        for (StoreRow row : rows) {
            result.count("tasks");
            result.count("status " + row.status() + (row.errorCode() == null ? "" : "/" + row.errorCode()));
            result.count("generation " + (row.protocolVersion() == null ? "none" : row.protocolVersion()));
            List<ServerJournal.Creation> created = createdByKey.getOrDefault(row.key(), List.of());
            if (created.size() > 1) {
                result.count("tasks created more than once");
                if (atMostOnce) {
                    result.violation("duplicate_create", row.id(), "created " + created.size()
                            + " times under atMostOnce: " + created.stream().map(ServerJournal.Creation::taskId)
                            .toList());
                }
            }
            if (!row.terminal()) {
                result.violation("not_terminal", row.id(), "still " + row.status() + " at the end of the run");
                continue;
            }
            if (row.remoteTaskId() == null) {
                checkNeverCreated(row, created, journal, result);
            } else {
                checkAgainstServer(row, created, journal, result);
            }
        }
        return result.build();
    }

    /** A row that never learnt a remote id: only a task the server never saw may be reported cancelled. */
    private static void checkNeverCreated(StoreRow row, List<ServerJournal.Creation> created, ServerJournal journal,
            CheckResult.Builder result) {
        if ("completed".equals(row.status())) {
            if (!row.on2026()) {
                result.violation("completed_without_remote_task", row.id(), "completed but no remote id was stored"
                        + " (protocol " + row.protocolVersion() + ": only a 2026-07-28 call finishes without a task)");
            } else if (!created.isEmpty()) {
                result.violation("completed_without_remote_task", row.id(), "completed at once without a remote id,"
                        + " but the server created " + created.stream().map(ServerJournal.Creation::taskId).toList()
                        + " for it");
            } else {
                result.count("completed at once without a task (2026-07-28)");
            }
        }
        if (!"cancelled".equals(row.status())) {
            return;
        }
        for (ServerJournal.Creation creation : created) {
            ServerJournal.Terminal end = journal.terminals().get(creation.taskId());
            String remote = end == null ? "never ended" : "ended " + end.status();
            if (end == null || !"cancelled".equals(end.status())) {
                result.violation("cancelled_but_created", row.id(), "reported cancelled without a remote id, but"
                        + " the server created " + creation.taskId() + " for it (" + remote + ")");
            }
        }
    }

    private static void checkAgainstServer(StoreRow row, List<ServerJournal.Creation> created, ServerJournal journal,
            CheckResult.Builder result) {
        if (created.stream().noneMatch(creation -> creation.taskId().equals(row.remoteTaskId()))) {
            result.violation("unknown_remote_task", row.id(), "remote id " + row.remoteTaskId()
                    + " was never created for this task's key");
            return;
        }
        created.stream().filter(creation -> creation.taskId().equals(row.remoteTaskId())).findFirst()
                .filter(creation -> row.on2026() != ServerJournal.GENERATION_2026.equals(
                        creation.generation()))
                .ifPresent(creation -> result.violation("generation_mismatch", row.id(), "stored with protocol "
                        + row.protocolVersion() + " but the server created " + row.remoteTaskId() + " on "
                        + creation.generation()));
        ServerJournal.Terminal end = journal.terminals().get(row.remoteTaskId());
        String seen = end == null ? "not ended" : end.status();
        if (row.cancelRequested() && !"cancelled".equals(row.status()) && row.status().equals(seen)) {
            // the user's cancel lost the race to the task's end (a 2026 cancel only acknowledges; a 2025 cancel of a
            // task already terminal is refused): the row tells the server's real end, checked below like any other
            result.count("cancel requested, task ended " + seen + " anyway");
        }
        switch (row.status()) {
            case "completed" -> {
                if (!"completed".equals(seen)) {
                    result.violation("status_mismatch", row.id(), "completed, but the server's task "
                            + row.remoteTaskId() + " is " + seen);
                } else if (!sameResult(row.result(), end.result())) {
                    result.violation("result_mismatch", row.id(), "stored " + row.result() + " but the server"
                            + " answered " + end.result());
                }
            }
            case "cancelled" -> {
                if (!"cancelled".equals(seen)) {
                    result.violation("status_mismatch", row.id(), "cancelled, but the server's task "
                            + row.remoteTaskId() + " is " + seen + (row.on2026()
                            ? " (a 2026-07-28 cancel is only an acknowledgement: the row must tell the real end)"
                            : ""));
                }
            }
            default -> checkFailed(row, seen, result);
        }
    }

    private static void checkFailed(StoreRow row, String seen, CheckResult.Builder result) {
        String code = Objects.requireNonNullElse(row.errorCode(), "");
        switch (code) {
            case "remote_failed" -> {
                if (!"failed".equals(seen)) {
                    result.violation("status_mismatch", row.id(), "failed (remote_failed), but the server's task "
                            + row.remoteTaskId() + " is " + seen);
                }
            }
            case "remote_task_lost" -> result.violation("lost_but_alive", row.id(), "remote_task_lost, but the"
                    + " server is shared and kept " + row.remoteTaskId() + " (" + seen + ")");
            default -> result.violation("unexpected_failure", row.id(), "failed with " + code + " while the server's"
                    + " task " + row.remoteTaskId() + " is " + seen);
        }
    }

    /** Results are equal when their content and error flag are; envelopes ({@code _meta}) may differ. */
    static boolean sameResult(String stored, JsonNode server) {
        if (stored == null || server == null) {
            return stored == null && server == null;
        }
        try {
            JsonNode parsed = MAPPER.readTree(stored);
            return parsed.path("content").equals(server.path("content"))
                    && parsed.path("isError").asBoolean(false) == server.path("isError").asBoolean(false);
        } catch (IOException e) {
            return false;
        }
    }
}
