package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.query;
import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.core.service.TaskSummary;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskRecord;

/**
 * {@code /ui/tasks}: the filter form, a page of matching tasks (newest first) with a link to the next, refreshed by
 * htmx every few seconds ({@code fragment=1} answers only the table), and the bulk cancel of what the filter matches.
 */
final class TaskListPage implements AdminRoute {
    static final String PATH = "/ui/tasks";
    static final int PAGE_SIZE = 25;

    private final TaskFinder finder;

    TaskListPage(TaskFinder finder) {
        this.finder = finder;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        TaskFilter filter;
        TaskId before;
        try {
            filter = TaskFilter.of(request);
            before = request.param("before") == null ? null : TaskId.of(request.param("before"));
        } catch (RuntimeException e) {
            return Dashboard.refusal(400, e.getMessage());
        }
        String table = table(filter, before);
        if ("1".equals(request.param("fragment"))) {
            return AdminReply.html(200, table);
        }
        String filterQuery = filter.toQuery();
        String self = PATH + "?" + filterQuery + (before == null ? "" : "&before=" + before.value());
        StringBuilder html = new StringBuilder();
        html.append("<h1>Tasks</h1>").append(form(filter));
        if (Dashboard.mayAct(request)) {
            html.append("<div class=\"actions\"><a id=\"bulk-cancel\" href=\"").append(BulkCancel.PATH).append("?")
                    .append(text(filterQuery)).append("\">Cancel everything this filter matches…</a></div>");
        }
        html.append("<div id=\"task-table\" hx-get=\"").append(text(self)).append("&amp;fragment=1\"")
                .append(" hx-trigger=\"every 3s\" hx-swap=\"innerHTML\">").append(table).append("</div>");
        return Dashboard.page(200, request, "Tasks", html.toString());
    }

    private String table(TaskFilter filter, TaskId before) {
        TaskFinder.Page page = finder.page(filter, before, PAGE_SIZE);
        StringBuilder html = new StringBuilder("<table id=\"tasks\"><thead><tr><th>ID</th><th>Status</th>"
                + "<th>Server</th><th>Tool</th><th>Principal</th><th>Created</th><th>Updated</th><th>Message</th>"
                + "</tr></thead><tbody>");
        for (TaskRecord task : page.tasks()) {
            html.append("<tr data-task=\"").append(text(task.id().value())).append("\"><td class=\"mono\"><a href=\"")
                    .append(TaskPage.PATH).append("?id=").append(query(task.id().value())).append("\">")
                    .append(text(task.id().value())).append("</a></td><td>")
                    .append(Dashboard.badge(task.status().wireName())).append("</td><td>")
                    .append(text(task.definition().serverName())).append("</td><td>")
                    .append(text(task.definition().toolName())).append("</td><td>")
                    .append(text(task.definition().principal() == null ? "-" : task.definition().principal()))
                    .append("</td><td>").append(text(task.definition().createdAt())).append("</td><td>")
                    .append(text(task.state().updatedAt())).append("</td><td class=\"msg\">")
                    .append(text(TaskSummary.message(task))).append("</td></tr>");
        }
        if (page.tasks().isEmpty()) {
            html.append("<tr><td colspan=\"8\" class=\"muted\" id=\"no-tasks\">No task matches.</td></tr>");
        }
        html.append("</tbody></table><div class=\"pager\">");
        String filterQuery = filter.toQuery();
        if (before != null) {
            html.append("<a href=\"").append(PATH).append("?").append(text(filterQuery)).append("\">First page</a>");
        }
        if (page.next() != null) {
            html.append("<a id=\"next-page\" href=\"").append(PATH).append("?").append(text(filterQuery))
                    .append(filterQuery.isEmpty() ? "" : "&amp;").append("before=").append(query(page.next().value()))
                    .append("\">Next page</a>");
        }
        if (page.stoppedEarly()) {
            html.append("<span class=\"hint\">read ").append(TaskFinder.SCAN_LIMIT)
                    .append(" tasks without filling the page; the next page reads on</span>");
        }
        return html.append("</div>").toString();
    }

    private static String form(TaskFilter filter) {
        StringBuilder html = new StringBuilder("<form class=\"filters\" method=\"get\" action=\"" + PATH + "\">");
        html.append("<label>Status<select name=\"status\" id=\"filter-status\"><option value=\"\">any</option>");
        for (TaskStatus status : TaskStatus.values()) {
            html.append("<option").append(status == filter.status() ? " selected" : "").append(">")
                    .append(status.wireName()).append("</option>");
        }
        html.append("</select></label>");
        input(html, "Server", "server", filter.server());
        input(html, "Tool", "tool", filter.tool());
        input(html, "Principal", "principal", filter.principal());
        html.append("<label>Age<select name=\"age\" id=\"filter-age\"><option value=\"\">any</option>");
        for (String span : new String[] {"15m", "1h", "24h", "7d"}) {
            option(html, "<" + span, "created within " + span, filter.age());
        }
        for (String span : new String[] {"15m", "1h", "24h", "7d"}) {
            option(html, ">" + span, "older than " + span, filter.age());
        }
        return html.append("</select></label><button type=\"submit\" id=\"apply-filter\">Filter</button>")
                .append("<a href=\"").append(PATH).append("\">clear</a></form>").toString();
    }

    private static void input(StringBuilder html, String label, String name, String value) {
        html.append("<label>").append(label).append("<input name=\"").append(name).append("\" id=\"filter-")
                .append(name).append("\" value=\"").append(text(value)).append("\"></label>");
    }

    private static void option(StringBuilder html, String value, String label, String selected) {
        html.append("<option value=\"").append(text(value)).append("\"").append(value.equals(selected) ? " selected"
                : "").append(">").append(label).append("</option>");
    }
}
