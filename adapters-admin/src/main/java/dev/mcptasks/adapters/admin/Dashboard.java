package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

/**
 * The dashboard's page shell: the head (its own stylesheet and script, htmx and uPlot from their WebJars), the
 * navigation, who is signed in with a sign-out form, and the page's content. Paths of the pages are here too.
 */
final class Dashboard {
    static final String HOME = "/ui/tasks";
    static final String STATIC = "/ui/static/";

    private Dashboard() {
    }

    /** A whole page; {@code content} is HTML this module built (every piece of data in it escaped). */
    static AdminReply page(int status, AdminRequest request, String title, String content) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(text(title)).append(" · mcp-tasks</title>")
                .append("<link rel=\"stylesheet\" href=\"").append(StaticAssets.UPLOT_CSS).append("\">")
                .append("<link rel=\"stylesheet\" href=\"").append(StaticAssets.CSS).append("\">")
                .append("<script src=\"").append(StaticAssets.HTMX).append("\"></script>")
                .append("<script src=\"").append(StaticAssets.UPLOT).append("\"></script>")
                .append("<script src=\"").append(StaticAssets.JS).append("\"></script>")
                .append("</head><body><header><nav><span class=\"brand\">mcp-tasks</span>")
                .append(link("/ui/tasks", "Tasks", request)).append(link("/ui/workers", "Workers", request))
                .append(link("/ui/servers", "Servers", request))
                .append(link("/ui/dead-letters", "Dead letters", request)).append("</nav>");
        if (request.principal() != null) {
            html.append("<div class=\"who\">").append(text(request.principal().name())).append(" <span class=\"role\">")
                    .append(text(request.principal().role().wireName())).append("</span>")
                    .append("<form method=\"post\" action=\"").append(LoginPage.LOGOUT).append("\">")
                    .append(csrf(request)).append("<button type=\"submit\" class=\"link\">sign out</button></form>")
                    .append("</div>");
        }
        html.append("</header><main>").append(content).append("</main></body></html>\n");
        return AdminReply.html(status, html.toString());
    }

    /** A short page saying why a request was refused (a wrong CSRF token, a viewer's action, bad input). */
    static AdminReply refusal(int status, String message) {
        return AdminReply.html(status, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
                + status + " · mcp-tasks</title><link rel=\"stylesheet\" href=\"" + StaticAssets.CSS + "\"></head>"
                + "<body><main><p class=\"error\" id=\"refusal\">" + text(message) + "</p><p><a href=\"" + HOME
                + "\">Back to the tasks</a></p></main></body></html>\n");
    }

    /**
     * A route that changes something: it answers only POST (which the handler admits only with the CSRF token and a
     * role that may act), so no link, image or redirect can trigger it.
     */
    static AdminRoute postOnly(AdminRoute route) {
        return request -> "POST".equals(request.method()) ? route.handle(request)
                : refusal(405, "This action takes a POST from the dashboard's own form.").withHeader("Allow", "POST");
    }

    /** The hidden field every form of a page carries. */
    static String csrf(AdminRequest request) {
        return "<input type=\"hidden\" name=\"" + AdminHandler.CSRF_FIELD + "\" value=\"" + text(request.csrfToken())
                + "\">";
    }

    /** Whether the page shows action buttons: only to a principal that may act. */
    static boolean mayAct(AdminRequest request) {
        return request.principal() != null && request.principal().role().mayAct();
    }

    /** A status as a coloured badge. */
    static String badge(String status) {
        return "<span class=\"badge s-" + text(status) + "\">" + text(status) + "</span>";
    }

    private static String link(String path, String label, AdminRequest request) {
        boolean here = request.path().equals(path) || request.path().startsWith(path + "/");
        return "<a href=\"" + path + "\"" + (here ? " class=\"here\"" : "") + ">" + label + "</a>";
    }
}
