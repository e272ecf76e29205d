package dev.mcptasks.adapters.admin;

import java.util.List;
import java.util.Map;

/**
 * A request the listener admitted: authenticated (when a token is configured), and for a POST checked for its role
 * and CSRF token.
 *
 * @param method the HTTP method
 * @param path the path without its query
 * @param query the decoded query parameters
 * @param form the decoded form fields of a POST ({@code application/x-www-form-urlencoded}), else empty
 * @param principal who asks (the open loopback listener's operator when no token is configured)
 * @param csrfToken the CSRF token this principal's forms must carry
 */
public record AdminRequest(String method, String path, Map<String, List<String>> query,
        Map<String, List<String>> form, AdminPrincipal principal, String csrfToken) {
    public AdminRequest {
        query = Map.copyOf(query);
        form = Map.copyOf(form);
    }

    /** A GET of the open listener's operator (tests, routes that need no principal). */
    public AdminRequest(String method, String path, Map<String, List<String>> query) {
        this(method, path, query, Map.of(), AdminPrincipal.LOOPBACK, "");
    }

    /** The first value of a form field, else of a query parameter, else null; blank counts as absent. */
    public String param(String name) {
        String value = first(form.get(name));
        if (value == null) {
            value = first(query.get(name));
        }
        return value == null || value.isBlank() ? null : value;
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
