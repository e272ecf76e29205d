package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.query;
import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.core.service.WorkerRoster;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;

/**
 * {@code /ui/workers}: the {@link WorkerRoster} as {@code mcp-tasks workers} shows it: live or stale by the store's
 * clock, with their claims; refreshed by htmx. Gone workers are counted, and listed with {@code all=1}.
 */
final class WorkersPage implements AdminRoute {
    static final String PATH = "/ui/workers";

    private final TaskService tasks;
    private final Duration staleAfter;

    WorkersPage(TaskService tasks, Duration staleAfter) {
        this.tasks = tasks;
        this.staleAfter = staleAfter;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        boolean all = "1".equals(request.param("all"));
        String table = table(all);
        if ("1".equals(request.param("fragment"))) {
            return AdminReply.html(200, table);
        }
        String html = "<h1>Workers</h1><p class=\"hint\">Live or stale as the store's clock judges it (no heartbeat"
                + " within " + text(staleAfter) + " is stale), the same judgement the workers make.</p>"
                + "<div hx-get=\"" + PATH + "?fragment=1" + (all ? "&amp;all=1" : "") + "\" hx-trigger=\"every 3s\""
                + " hx-swap=\"innerHTML\">" + table + "</div>";
        return Dashboard.page(200, request, "Workers", html);
    }

    private String table(boolean all) {
        WorkerRoster.Roster roster = WorkerRoster.read(tasks, staleAfter, all);
        StringBuilder html = new StringBuilder("<table id=\"workers\"><thead><tr><th>Worker</th><th>State</th>"
                + "<th>Host</th><th>PID</th><th>Started</th><th>Last seen</th><th>Claims</th></tr></thead><tbody>");
        for (WorkerRoster.Entry entry : roster.workers()) {
            html.append("<tr><td class=\"mono\">").append(text(entry.worker().id())).append("</td><td>")
                    .append(Dashboard.badge(entry.live() ? "live" : "stale")).append("</td><td>")
                    .append(text(entry.worker().host())).append("</td><td>").append(entry.worker().pid())
                    .append("</td><td>").append(text(entry.worker().startedAt())).append("</td><td>")
                    .append(text(entry.worker().lastSeenAt())).append("</td><td>");
            if (entry.claims().isEmpty()) {
                html.append("none");
            }
            for (TaskRecord task : entry.claims()) {
                html.append("<a class=\"mono\" href=\"").append(TaskPage.PATH).append("?id=")
                        .append(query(task.id().value())).append("\">").append(text(task.id().value())).append("</a>/")
                        .append(text(task.lease().phase().wireName())).append(' ');
            }
            html.append("</td></tr>");
        }
        if (roster.workers().isEmpty()) {
            html.append("<tr><td colspan=\"7\" class=\"muted\">No registered worker.</td></tr>");
        }
        html.append("</tbody></table>");
        if (roster.gone() > 0) {
            html.append("<p class=\"hint\">").append(roster.gone()).append(" workers not seen for over an hour and"
                    + " holding no claim are hidden (<a href=\"").append(PATH).append("?all=1\">show them</a>).</p>");
        }
        return html.toString();
    }
}
