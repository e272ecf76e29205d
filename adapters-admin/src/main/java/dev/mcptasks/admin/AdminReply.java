package dev.mcptasks.admin;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** What a route answers: a status, a content type and a body. */
public record AdminReply(int status, String contentType, byte[] body) {
    public AdminReply {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(body, "body");
    }

    public static AdminReply text(int status, String text) {
        return new AdminReply(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    public static AdminReply json(int status, String json) {
        return new AdminReply(status, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }
}
