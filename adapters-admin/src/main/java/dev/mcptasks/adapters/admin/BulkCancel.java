package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Cancelling everything a filter matches, in two steps: a GET counts the tasks not yet ended and asks to confirm; the
 * confirm (a POST) cancels those up to the newest one counted, so tasks submitted in between are not swept along.
 * Each cancel is audited by the task service; the bulk action as a whole once more, with its filter and figures.
 */
final class BulkCancel implements AdminRoute {
    static final String PATH = "/ui/tasks/bulk-cancel";

    private final TaskFinder finder;
    private final OperatorActions actions;

    BulkCancel(TaskFinder finder, OperatorActions actions) {
        this.finder = finder;
        this.actions = actions;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        TaskFilter filter;
        try {
            filter = TaskFilter.of(request);
        } catch (IllegalArgumentException e) {
            return Dashboard.refusal(400, e.getMessage());
        }
        return "POST".equals(request.method()) ? confirm(request, filter) : preview(request, filter);
    }

    private AdminReply preview(AdminRequest request, TaskFilter filter) {
        TaskFinder.Cancellable found = finder.cancellable(filter, null);
        StringBuilder html = new StringBuilder("<h1>Cancel tasks</h1><p>Filter: <code>")
                .append(text(filter.describe())).append("</code></p>");
        if (found.tooMany()) {
            html.append("<p class=\"error\">More than ").append(TaskFinder.BULK_LIMIT).append(" tasks match: narrow"
                    + " the filter.</p>");
        } else if (found.ids().isEmpty()) {
            html.append("<p id=\"bulk-count\">No task that has not ended matches (").append(found.ended())
                    .append(" matching tasks have ended).</p>");
        } else {
            html.append("<p id=\"bulk-count\"><strong>").append(found.ids().size()).append("</strong> tasks not yet"
                    + " ended match and will be cancelled (").append(found.ended())
                    .append(" matching tasks have already ended and are left alone).</p><form method=\"post\""
                            + " action=\"").append(PATH).append("\">").append(Dashboard.csrf(request))
                    .append(filter.toHiddenFields()).append("<input type=\"hidden\" name=\"upto\" value=\"")
                    .append(text(found.ids().get(0).value())).append("\"><button type=\"submit\""
                            + " class=\"danger\" id=\"confirm-bulk-cancel\">Cancel ").append(found.ids().size())
                    .append(" tasks</button></form>");
        }
        html.append("<p><a href=\"").append(TaskListPage.PATH).append("?").append(text(filter.toQuery()))
                .append("\">Back to the tasks</a></p>");
        return Dashboard.page(200, request, "Cancel tasks", html.toString());
    }

    private AdminReply confirm(AdminRequest request, TaskFilter filter) {
        String upTo = request.param("upto");
        if (upTo == null) {
            return Dashboard.refusal(400, "the confirm step lost its count: start again from the task list");
        }
        TaskFinder.Cancellable found = finder.cancellable(filter, TaskId.of(upTo));
        if (found.tooMany()) {
            return Dashboard.refusal(400, "more than " + TaskFinder.BULK_LIMIT + " tasks match: narrow the filter");
        }
        TaskService tasks = actions.as(request.principal());
        Map<CancelRequestOutcome, Integer> outcomes = new EnumMap<>(CancelRequestOutcome.class);
        for (TaskId id : found.ids()) {
            outcomes.merge(tasks.requestCancel(id), 1, Integer::sum);
        }
        StringBuilder figures = new StringBuilder();
        outcomes.forEach((outcome, n) -> figures.append(figures.length() == 0 ? "" : ", ")
                .append(outcome.name().toLowerCase(Locale.ROOT)).append(' ').append(n));
        actions.record(request.principal(), "bulk cancel of " + filter.describe() + " up to " + upTo + ": "
                + found.ids().size() + " tasks (" + (figures.length() == 0 ? "none" : figures) + ")");
        String html = "<h1>Cancel tasks</h1><p class=\"note\" id=\"bulk-done\">Cancel requested for "
                + found.ids().size() + " tasks (" + text(figures.length() == 0 ? "none" : figures.toString())
                + "). The workers that serve them send the cancels.</p><p><a href=\"" + TaskListPage.PATH + "?"
                + text(filter.toQuery()) + "\">Back to the tasks</a></p>";
        return Dashboard.page(200, request, "Cancel tasks", html);
    }
}
