package dev.mcptasks.adapters.admin;

import dev.mcptasks.core.service.AnswerRejectedException;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The task page's actions (POST; the handler has checked the role and the CSRF token): cancel a task, answer one of
 * its input requests. Both go through the task service as the principal, which audits them; the answer is the
 * task's page again with what happened.
 */
final class TaskActions {
    static final String CANCEL = "/ui/task/cancel";
    static final String ANSWER = "/ui/task/answer";

    private final OperatorActions actions;

    TaskActions(OperatorActions actions) {
        this.actions = actions;
    }

    AdminRoute cancel() {
        return request -> {
            TaskId id = id(request);
            if (id == null) {
                return Dashboard.refusal(400, "which task? (the form has no id)");
            }
            CancelRequestOutcome outcome = actions.as(request.principal()).requestCancel(id);
            if (outcome == CancelRequestOutcome.NOT_FOUND) {
                return Dashboard.refusal(404, "no such task: " + id.value());
            }
            return back(id, outcome);
        };
    }

    AdminRoute answer() {
        return request -> {
            TaskId id = id(request);
            String key = request.param("key");
            String answer = request.param("answer");
            if (id == null || key == null || answer == null) {
                return Dashboard.refusal(400, "an answer needs the task, the request's key and the answer (JSON)");
            }
            AnswerOutcome outcome;
            try {
                outcome = actions.as(request.principal()).answer(id, key, answer);
            } catch (AnswerRejectedException e) {
                return Dashboard.refusal(400, "The answer was not stored: " + e.getMessage());
            }
            if (outcome == AnswerOutcome.NOT_FOUND) {
                return Dashboard.refusal(404, "no such task: " + id.value());
            }
            return back(id, outcome);
        };
    }

    private static AdminReply back(TaskId id, Enum<?> outcome) {
        return AdminReply.redirect(TaskPage.PATH + "?id=" + URLEncoder.encode(id.value(), StandardCharsets.UTF_8) + "&done="
                + outcome.name().toLowerCase(Locale.ROOT));
    }

    private static TaskId id(AdminRequest request) {
        String id = request.param("id");
        try {
            return id == null ? null : TaskId.of(id);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
