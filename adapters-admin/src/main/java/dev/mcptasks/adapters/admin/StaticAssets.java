package dev.mcptasks.adapters.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dashboard's static files, served from the jar: htmx and uPlot from their WebJars (the versions here are the
 * POM's), and the dashboard's own stylesheet and script. Read once; cached by browsers for a day.
 */
final class StaticAssets {
    static final String HTMX_VERSION = "2.0.7";
    static final String UPLOT_VERSION = "1.6.30";

    static final String HTMX = Dashboard.STATIC + "htmx.min.js";
    static final String UPLOT = Dashboard.STATIC + "uPlot.iife.min.js";
    static final String UPLOT_CSS = Dashboard.STATIC + "uPlot.min.css";
    static final String CSS = Dashboard.STATIC + "dashboard.css";
    static final String JS = Dashboard.STATIC + "dashboard.js";

    private static final String JS_TYPE = "text/javascript; charset=utf-8";
    private static final String CSS_TYPE = "text/css; charset=utf-8";

    private StaticAssets() {
    }

    /** Each file's route by its path; a file missing from the class path fails here, at assembly. */
    static Map<String, AdminRoute> routes() {
        Map<String, AdminRoute> routes = new LinkedHashMap<>();
        routes.put(HTMX, file("META-INF/resources/webjars/htmx.org/" + HTMX_VERSION + "/dist/htmx.min.js", JS_TYPE));
        routes.put(UPLOT, file("META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/uPlot.iife.min.js",
                JS_TYPE));
        routes.put(UPLOT_CSS, file("META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/uPlot.min.css",
                CSS_TYPE));
        routes.put(CSS, file("dev/mcptasks/adapters/admin/ui/dashboard.css", CSS_TYPE));
        routes.put(JS, file("dev/mcptasks/adapters/admin/ui/dashboard.js", JS_TYPE));
        return routes;
    }

    private static AdminRoute file(String resource, String type) {
        byte[] body;
        try (InputStream in = StaticAssets.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's file " + resource + " is not on the class path");
            }
            body = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AdminReply reply = new AdminReply(200, type, body).withHeader("Cache-Control", "public, max-age=86400");
        return request -> reply;
    }
}
