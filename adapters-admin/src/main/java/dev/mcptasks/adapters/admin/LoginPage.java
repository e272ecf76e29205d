package dev.mcptasks.adapters.admin;

import static dev.mcptasks.adapters.admin.HtmlEscaper.text;

/**
 * The login form: a principal's token (as configured in {@code admin.token} or {@code admin.users}) in exchange for
 * a session cookie ({@code HttpOnly; SameSite=Strict}); the handler checks it ({@link AdminAuth#login}).
 */
final class LoginPage {
    static final String PATH = "/ui/login";
    static final String LOGOUT = "/ui/logout";

    private LoginPage() {
    }

    static AdminReply render(int status, String error) {
        return AdminReply.html(status, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>Sign in · mcp-tasks</title><link rel=\"stylesheet\" href=\"" + StaticAssets.CSS + "\">"
                + "</head><body><main class=\"login\"><h1>mcp-tasks admin</h1>"
                + (error == null ? "" : "<p class=\"error\" id=\"login-error\">" + text(error) + "</p>")
                + "<form method=\"post\" action=\"" + PATH + "\"><label>Token <input type=\"password\" name=\"token\""
                + " id=\"token\" autocomplete=\"current-password\" required autofocus></label>"
                + "<button type=\"submit\" id=\"sign-in\">Sign in</button></form>"
                + "<p class=\"hint\">The token of <code>admin.token</code> or of a user in <code>admin.users</code>.</p>"
                + "</main></body></html>\n");
    }

    /** The form (GET). */
    static AdminRoute route() {
        return request -> render(200, null);
    }
}
