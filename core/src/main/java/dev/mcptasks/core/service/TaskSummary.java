package dev.mcptasks.core.service;

import dev.mcptasks.domain.DomainException;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.List;
import java.util.Map;

/**
 * What a reader wants to know of a task at a glance, said the same way by every front that shows tasks (the command
 * line's {@code list} and {@code show}, the admin dashboard).
 */
public final class TaskSummary {
    /** How long {@link #message} keeps a result's text. */
    public static final int PREVIEW_CHARS = 60;

    private TaskSummary() {
    }

    /**
     * Its error, a completed task's result (its first text, on one line, cut short), else the last status message (a
     * finished task's last progress text would mislead).
     */
    public static String message(TaskRecord task) {
        TaskRecord.State state = task.state();
        if (state.errorCode() != null) {
            return state.errorCode() + ": " + state.error();
        }
        if (task.status() == TaskStatus.COMPLETED) {
            return "result: " + resultPreview(state.resultJson());
        }
        return task.status().isTerminal() ? task.status().wireName() : state.statusMessage();
    }

    /** The first text content of a result on one line, cut to {@link #PREVIEW_CHARS}; "none" without a result. */
    public static String resultPreview(String resultJson) {
        if (resultJson == null) {
            return "none";
        }
        String text = firstText(resultJson);
        if (text == null) {
            text = resultJson.length() + " bytes of JSON ('result ID' prints it)";
        }
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= PREVIEW_CHARS ? line : line.substring(0, PREVIEW_CHARS - 1) + "…";
    }

    /**
     * Whether a cancel was requested. A cancel the runtime gave up on without sending (the server cannot cancel)
     * clears the request and keeps the reason as the last cancel error: that says "not sent", not "not requested".
     */
    public static String cancelState(TaskRecord.Control control) {
        if (control.cancelRequestedAt() != null) {
            return "requested at " + control.cancelRequestedAt();
        }
        return control.lastCancelError() == null ? "not requested" : "not sent: " + control.lastCancelError();
    }

    /** The result's first content item's text when it is a text item; the whole JSON when it is not JSON at all. */
    private static String firstText(String resultJson) {
        Object parsed;
        try {
            parsed = StrictJson.parse(resultJson);
        } catch (DomainException e) {
            return resultJson;
        }
        if (parsed instanceof Map<?, ?> result && result.get("content") instanceof List<?> content
                && !content.isEmpty() && content.get(0) instanceof Map<?, ?> first && "text".equals(first.get("type"))
                && first.get("text") instanceof String text) {
            return text;
        }
        return null;
    }
}
