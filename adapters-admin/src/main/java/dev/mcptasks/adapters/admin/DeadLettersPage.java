package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.query;
import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code /ui/dead-letters}: notifications given up, newest first, paged by the store's cursor, each with a replay
 * button for a principal that may act ({@code POST /ui/dead-letters/replay}, audited by the task service).
 */
final class DeadLettersPage implements AdminRoute {
    static final String PATH = "/ui/dead-letters";
    static final String REPLAY = "/ui/dead-letters/replay";
    static final int PAGE_SIZE = 25;

    private final TaskService tasks;
    private final OperatorActions actions;

    DeadLettersPage(TaskService tasks, OperatorActions actions) {
        this.tasks = tasks;
        this.actions = actions;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        DeadLetterQuery page = DeadLetterQuery.first(PAGE_SIZE);
        try {
            if (request.param("at") != null && request.param("after") != null) {
                page = new DeadLetterQuery(PAGE_SIZE, new DeadLetterQuery.Cursor(
                        Instant.ofEpochMilli(Long.parseLong(request.param("at"))), TaskId.of(request.param("after"))));
            }
        } catch (RuntimeException e) {
            return Dashboard.refusal(400, "a bad page cursor: " + e.getMessage());
        }
        List<TaskRecord> dead = tasks.deadLetters(page);
        StringBuilder html = new StringBuilder("<h1>Dead letters</h1>");
        String done = request.param("done");
        if ("replayed".equals(done) || "not_dead".equals(done)) {
            html.append("<p class=\"note\" id=\"done\">").append("replayed".equals(done)
                    ? "Replayed: the notification is deliverable again." : "That notification is no dead letter"
                            + " (any more).").append("</p>");
        }
        html.append("<table id=\"dead-letters\"><thead><tr><th>Task</th><th>Server</th><th>Tool</th><th>Version</th>"
                + "<th>Attempts</th><th>Died</th><th>Error</th><th></th></tr></thead><tbody>");
        for (TaskRecord task : dead) {
            TaskRecord.Outbox outbox = task.outbox();
            html.append("<tr><td class=\"mono\"><a href=\"").append(TaskPage.PATH).append("?id=")
                    .append(query(task.id().value())).append("\">").append(text(task.id().value()))
                    .append("</a></td><td>").append(text(task.definition().serverName())).append("</td><td>")
                    .append(text(task.definition().toolName())).append("</td><td>").append(outbox.dispatchVersion())
                    .append("</td><td>").append(outbox.dispatchAttempt()).append("</td><td>")
                    .append(text(outbox.nextAt())).append("</td><td>").append(text(outbox.error())).append("</td><td>");
            if (Dashboard.mayAct(request)) {
                html.append("<form method=\"post\" action=\"").append(REPLAY).append("\">")
                        .append(Dashboard.csrf(request)).append("<input type=\"hidden\" name=\"id\" value=\"")
                        .append(text(task.id().value())).append("\"><button type=\"submit\">Replay</button></form>");
            }
            html.append("</td></tr>");
        }
        if (dead.isEmpty()) {
            html.append("<tr><td colspan=\"8\" class=\"muted\">No dead letters.</td></tr>");
        }
        html.append("</tbody></table>");
        if (dead.size() == PAGE_SIZE) {
            DeadLetterQuery.Cursor next = DeadLetterQuery.Cursor.of(dead.get(dead.size() - 1));
            html.append("<div class=\"pager\"><a href=\"").append(PATH).append("?at=")
                    .append(next.deadLetteredAt().toEpochMilli()).append("&amp;after=").append(query(next.id().value()))
                    .append("\">Next page</a></div>");
        }
        return Dashboard.page(200, request, "Dead letters", html.toString());
    }

    AdminRoute replay() {
        return request -> {
            String id = request.param("id");
            if (id == null) {
                return Dashboard.refusal(400, "which task? (the form has no id)");
            }
            ReplayOutcome outcome = actions.as(request.principal()).replayDeadLetter(TaskId.of(id));
            if (outcome == ReplayOutcome.NOT_FOUND) {
                return Dashboard.refusal(404, "no such task: " + id);
            }
            return AdminReply.redirect(PATH + "?done=" + outcome.name().toLowerCase(Locale.ROOT));
        };
    }
}
