package dev.mcptasks.adapters.admin;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** What a route answers: a status, a content type, a body and any further headers (a cookie, a redirect). */
public record AdminReply(int status, String contentType, byte[] body, Map<String, String> headers) {
    public AdminReply {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
        headers = Map.copyOf(headers);
    }

    public AdminReply(int status, String contentType, byte[] body) {
        this(status, contentType, body, Map.of());
    }

    public static AdminReply text(int status, String text) {
        return new AdminReply(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    public static AdminReply json(int status, String json) {
        return new AdminReply(status, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    public static AdminReply html(int status, String html) {
        return new AdminReply(status, "text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8));
    }

    /** 303 See Other: after a POST the browser GETs {@code location} (a path of this listener). */
    public static AdminReply redirect(String location) {
        return text(303, "see " + location + "\n").withHeader("Location", location);
    }

    public AdminReply withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new AdminReply(status, contentType, body, more);
    }
}
