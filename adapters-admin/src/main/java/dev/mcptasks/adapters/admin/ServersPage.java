package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.query;
import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskFigures;
import dev.mcptasks.ports.repository.TaskRepository;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code /ui/servers}: per upstream server, its tasks by status (the store's figures) and its requests, mean and
 * max latency and errors as this process's metrics registry counted them since it started; with charts of latency
 * and errors over the last minutes ({@link UpstreamHistory}, served as JSON at {@code /ui/servers/data}).
 */
final class ServersPage implements AdminRoute {
    static final String PATH = "/ui/servers";
    static final String DATA = "/ui/servers/data";

    private final TaskRepository repository;
    private final UpstreamHistory history;

    ServersPage(TaskRepository repository, UpstreamHistory history) {
        this.repository = repository;
        this.history = history;
    }

    @Override
    public AdminReply handle(AdminRequest request) {
        // the charts' baseline: their first data request, a few seconds on, then has an interval to show
        history.sample();
        Map<String, Map<TaskStatus, Long>> byServer = new TreeMap<>();
        for (TaskFigures.Count count : repository.figures().counts()) {
            byServer.computeIfAbsent(count.server(), s -> new TreeMap<>()).merge(count.status(), count.tasks(),
                    Long::sum);
        }
        Map<String, UpstreamHistory.Totals> totals = history.totals();
        TreeSet<String> servers = new TreeSet<>(byServer.keySet());
        servers.addAll(totals.keySet());
        StringBuilder html = new StringBuilder("<h1>Upstream servers</h1><table id=\"servers\"><thead><tr>"
                + "<th>Server</th>");
        for (TaskStatus status : TaskStatus.values()) {
            html.append("<th>").append(status.wireName()).append("</th>");
        }
        html.append("<th>Requests</th><th>Mean latency</th><th>Max latency</th><th>Errors</th></tr></thead><tbody>");
        for (String server : servers) {
            html.append("<tr><td>").append(text(server)).append("</td>");
            Map<TaskStatus, Long> counts = byServer.getOrDefault(server, Map.of());
            for (TaskStatus status : TaskStatus.values()) {
                long n = counts.getOrDefault(status, 0L);
                html.append("<td>").append(n == 0 ? "0" : "<a href=\"" + TaskListPage.PATH + "?server=" + query(server)
                        + "&amp;status=" + status.wireName() + "\">" + n + "</a>").append("</td>");
            }
            UpstreamHistory.Totals t = totals.get(server);
            html.append("<td>").append(t == null ? "-" : t.requests()).append("</td><td>")
                    .append(t == null || t.requests() == 0 ? "-" : millis(t.totalMillis() / t.requests()))
                    .append("</td><td>").append(t == null || t.requests() == 0 ? "-" : millis(t.maxMillis()))
                    .append("</td><td>").append(t == null ? "-" : String.format(Locale.ROOT, "%.0f", t.errors()))
                    .append("</td></tr>");
        }
        if (servers.isEmpty()) {
            html.append("<tr><td colspan=\"11\" class=\"muted\">No server has had a task yet.</td></tr>");
        }
        html.append("</tbody></table><p class=\"hint\">Tasks are the store's; requests, latency and errors are what this"
                + " process sent since it started (max latency: the registry's recent window).</p>")
                .append("<h2>Latency and errors</h2><p class=\"hint\" id=\"charts-empty\">Charts appear once this"
                        + " process has sent upstream requests; a point every few seconds while this page is open.</p>")
                .append("<div class=\"charts\" id=\"upstream-charts\" data-src=\"").append(DATA).append("\"></div>");
        return Dashboard.page(200, request, "Servers", html.toString());
    }

    /** The history as uPlot's columns per server: {@code {"servers":{"ref":{"t":[...],"latencyMs":[...],...}}}}. */
    AdminRoute data() {
        return request -> {
            StringBuilder json = new StringBuilder("{\"servers\":{");
            boolean first = true;
            for (Map.Entry<String, Deque<UpstreamHistory.Point>> entry : history.sample().entrySet()) {
                json.append(first ? "" : ",").append(StrictJson.quote(entry.getKey())).append(":{");
                first = false;
                column(json, "t", entry.getValue(), point -> String.valueOf(point.epochSeconds()));
                json.append(',');
                column(json, "latencyMs", entry.getValue(), point -> number(point.meanMillis()));
                json.append(',');
                column(json, "errors", entry.getValue(), point -> number(point.errors()));
                json.append('}');
            }
            return AdminReply.json(200, json.append("}}").toString());
        };
    }

    private static void column(StringBuilder json, String name, Deque<UpstreamHistory.Point> points,
            java.util.function.Function<UpstreamHistory.Point, String> value) {
        json.append('"').append(name).append("\":[");
        boolean first = true;
        for (UpstreamHistory.Point point : points) {
            json.append(first ? "" : ",").append(value.apply(point));
            first = false;
        }
        json.append(']');
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    private static String millis(double value) {
        return String.format(Locale.ROOT, "%.1f ms", value);
    }
}
