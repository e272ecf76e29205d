package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.bounded;
import static dev.mcptasks.adapters.admin.HtmlEscaper.query;
import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.core.service.InputRequests;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.TaskSummary;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.repository.TaskHistory;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code /ui/task?id=...}: one task, refreshed by htmx ({@code fragment=1} answers the details only): its facts, its
 * timeline (with its claim history), its lease, its notification, a bounded preview of its result, its audit records; and, for a principal
 * that may act, a cancel button and a form per pending input request.
 */
final class TaskPage implements AdminRoute {
    static final String PATH = "/ui/task";
    /** How much of a result or of the arguments a page shows. */
    static final int PREVIEW_CHARS = 4_000;
    static final int AUDIT_LIMIT = 100;

    /** What the action just done said, by the code the redirect carries (never text from the request). */
    private static final Map<String, String> NOTES = Map.of(
            "requested", "Cancel requested; the worker that serves the task sends it.",
            "already_requested", "A cancel was already requested.",
            "cancelled_locally", "Cancelled (it had not been sent).",
            "already_terminal", "The task had already ended; nothing to cancel.",
            "accepted", "Answer stored; the worker that serves the task delivers it.",
            "duplicate", "An answer to that request is already waiting; the first one stands.",
            "not_waiting", "The task stopped waiting for input; the answer was not stored.",
            "replayed", "The dead letter is deliverable again.",
            "not_dead", "The notification is not a dead letter (any more).");

    private final TaskService tasks;
    private final AuditLog audit;
    private final TaskHistory history;

    TaskPage(TaskService tasks, AuditLog audit, TaskHistory history) {
        this.tasks = tasks;
        this.audit = audit;
        this.history = history;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        String id = request.param("id");
        Optional<TaskRecord> found;
        try {
            found = id == null ? Optional.empty() : tasks.find(TaskId.of(id));
        } catch (RuntimeException e) {
            found = Optional.empty();
        }
        if (found.isEmpty()) {
            return Dashboard.page(404, request, "No such task", "<p class=\"error\">No such task: <code>" + text(id)
                    + "</code></p>");
        }
        TaskRecord task = found.get();
        String details = details(task);
        if ("1".equals(request.param("fragment"))) {
            return AdminReply.html(200, details);
        }
        StringBuilder html = new StringBuilder("<h1>Task <code id=\"task-id\">").append(text(task.id().value()))
                .append("</code></h1>");
        String note = request.param("done") == null ? null : NOTES.get(request.param("done"));
        if (note != null) {
            html.append("<p class=\"note\" id=\"done\">").append(text(note)).append("</p>");
        }
        if (Dashboard.mayAct(request)) {
            html.append(actions(request, task));
        }
        html.append("<div id=\"task-details\" hx-get=\"").append(PATH).append("?id=").append(query(task.id().value()))
                .append("&amp;fragment=1\" hx-trigger=\"every 2s\" hx-swap=\"innerHTML\">").append(details)
                .append("</div>");
        return Dashboard.page(200, request, "Task " + task.id().value(), html.toString());
    }

    private String details(TaskRecord task) {
        TaskRecord.State state = task.state();
        TaskRecord.Control control = task.control();
        TaskRecord.Lease lease = task.lease();
        TaskRecord.Outbox outbox = task.outbox();
        StringBuilder html = new StringBuilder("<dl class=\"facts\">");
        fact(html, "status", Dashboard.badge(task.status().wireName()) + " <span id=\"task-status\">"
                + text(task.status().wireName()) + "</span>");
        fact(html, "server", text(task.definition().serverName() + " (" + task.definition().driver() + ")"));
        fact(html, "tool", "<span id=\"task-tool\">" + text(task.definition().toolName()) + "</span>");
        fact(html, "principal", text(task.definition().principal() == null ? "-" : task.definition().principal()));
        fact(html, "summary", text(TaskSummary.message(task)));
        fact(html, "status message", text(state.statusMessage()));
        fact(html, "remote task", text(state.remoteTaskId()));
        fact(html, "protocol", text(state.protocolVersion()));
        fact(html, "attempts", text("submit " + control.submitAttemptCount() + ", poll " + control.pollAttemptCount()
                + ", cancel " + control.cancelAttemptCount() + "; consecutive errors "
                + control.consecutiveErrorCount()));
        fact(html, "lease", text(lease.isHeld() ? lease.phase().wireName() + " claim by " + lease.owner() + " until "
                + lease.expiresAt() : "none"));
        fact(html, "next control", text(control.nextControlAt()));
        fact(html, "created by worker", text(state.createdBy()));
        fact(html, "cancel", text(TaskSummary.cancelState(control)));
        fact(html, "last error", text(control.lastPollError()));
        fact(html, "error", text(state.errorCode() == null ? null : state.errorCode() + ": " + state.error()));
        fact(html, "notification", Dashboard.badge(outbox.status().wireName()) + text(" event " + outbox.eventVersion()
                + ", notified " + outbox.notifiedVersion() + ", attempts " + outbox.attemptCount()
                + (outbox.error() == null ? "" : ", error: " + outbox.error())));
        html.append("</dl>");
        html.append(inputRequests(task));
        html.append("<h2>Timeline</h2><ol class=\"timeline\" id=\"timeline\">");
        List<AuditRecord> records = audit.list(new AuditQuery(task.id(), null, AUDIT_LIMIT));
        for (TaskTimeline.Event event : TaskTimeline.of(task, history.history(task.id()), records)) {
            html.append("<li><span class=\"when\">").append(text(event.at())).append("</span><strong>")
                    .append(text(event.what())).append("</strong>")
                    .append(event.detail() == null ? "" : " · " + text(event.detail())).append("</li>");
        }
        html.append("</ol><p class=\"hint\">Claims: every submit and cancel claim and every takeover; a poll claim"
                + " of a free lease is not recorded (the last poll is).</p>");
        html.append("<h2>Arguments</h2><pre id=\"arguments\">")
                .append(bounded(task.definition().argumentsJson(), PREVIEW_CHARS)).append("</pre>");
        if (state.resultJson() != null) {
            html.append("<h2>Result").append(state.resultTruncated() ? " (truncated by the store)" : "")
                    .append("</h2><pre id=\"result\">").append(bounded(state.resultJson(), PREVIEW_CHARS))
                    .append("</pre>");
        }
        html.append("<h2>Audit</h2><table id=\"audit\"><thead><tr><th>At</th><th>Principal</th><th>Channel</th>"
                + "<th>Action</th><th>Detail</th></tr></thead><tbody>");
        for (AuditRecord record : records) {
            html.append("<tr><td>").append(text(record.at())).append("</td><td>").append(text(record.principal()))
                    .append("</td><td>").append(text(record.channel().wireName())).append("</td><td>")
                    .append(text(record.action().wireName())).append("</td><td>").append(text(record.detail()))
                    .append("</td></tr>");
        }
        return html.append("</tbody></table>").toString();
    }

    private static String inputRequests(TaskRecord task) {
        if (task.status() != TaskStatus.INPUT_REQUIRED) {
            return "";
        }
        StringBuilder html = new StringBuilder("<h2>Input requests</h2><ul id=\"input-requests\">");
        Set<String> pending = InputRequests.pendingAnswerKeys(task);
        for (InputRequests.InputRequest input : InputRequests.of(task)) {
            html.append("<li><code>").append(text(input.key())).append("</code> ").append(text(input.method()))
                    .append(input.message() == null ? "" : " · " + text(input.message()))
                    .append(pending.contains(input.key()) ? " <em>(answer waiting to be delivered)</em>" : "")
                    .append("</li>");
        }
        html.append("</ul>");
        if (!InputRequests.answerable(task)) {
            html.append("<p class=\"hint\">Not answerable from mcp-tasks: ").append(text(InputRequests.ANSWERS_2025))
                    .append("</p>");
        }
        return html.toString();
    }

    private static String actions(AdminRequest request, TaskRecord task) {
        StringBuilder html = new StringBuilder("<div class=\"actions\">");
        if (!task.status().isTerminal()) {
            html.append("<form method=\"post\" action=\"").append(TaskActions.CANCEL).append("\">")
                    .append(Dashboard.csrf(request)).append("<input type=\"hidden\" name=\"id\" value=\"")
                    .append(text(task.id().value())).append("\"><button type=\"submit\" class=\"danger\""
                            + " id=\"cancel-task\">Cancel task</button></form>");
        }
        if (task.status() == TaskStatus.INPUT_REQUIRED && InputRequests.answerable(task)) {
            Set<String> pending = InputRequests.pendingAnswerKeys(task);
            for (InputRequests.InputRequest input : InputRequests.of(task)) {
                if (pending.contains(input.key())) {
                    continue;
                }
                html.append("<form method=\"post\" action=\"").append(TaskActions.ANSWER).append("\" class=\"answer\">")
                        .append(Dashboard.csrf(request)).append("<input type=\"hidden\" name=\"id\" value=\"")
                        .append(text(task.id().value())).append("\"><input type=\"hidden\" name=\"key\" value=\"")
                        .append(text(input.key())).append("\"><label>Answer to <code>").append(text(input.key()))
                        .append("</code><br><textarea name=\"answer\" rows=\"3\" cols=\"60\" placeholder=\"")
                        .append(text(InputRequests.answerTemplate(input.method()))).append("\"></textarea></label>")
                        .append("<button type=\"submit\">Answer</button></form>");
            }
        }
        return html.append("</div>").toString();
    }

    private static void fact(StringBuilder html, String label, String valueHtml) {
        html.append("<dt>").append(text(label)).append("</dt><dd>").append(valueHtml.isEmpty() ? "-" : valueHtml)
                .append("</dd>");
    }
}
