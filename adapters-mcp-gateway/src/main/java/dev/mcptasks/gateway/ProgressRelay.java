package dev.mcptasks.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.Objects;

/**
 * The progress of a plain {@code tools/call} whose client asked for it ({@code _meta.progressToken}): each new
 * progress message the worker stored for the task (the upstream's {@code notifications/progress}, throttled) goes to
 * the client as its own {@code notifications/progress}, counted up from 1. Read from the row at the watcher's passes,
 * so a message that was replaced between two passes is not sent (progress is advisory).
 */
final class ProgressRelay {
    static final String METHOD = "notifications/progress";

    private final FrontSession session;
    private final JsonNode token;
    private String lastMessage;
    private long count;

    private ProgressRelay(FrontSession session, JsonNode token) {
        this.session = session;
        this.token = token;
    }

    /** A relay for the call, or null when the client asked for no progress or has no session to hear it. */
    static ProgressRelay of(FrontRequest request, ObjectNode params) {
        JsonNode token = params.path("_meta").get("progressToken");
        if (request.session() == null || token == null || !(token.isTextual() || token.isIntegralNumber())) {
            return null;
        }
        return new ProgressRelay(request.session(), token);
    }

    /**
     * One read of the call's row: a new message of a task not yet over is relayed (a direct call's row stays pending
     * while the call runs; its progress is stored all the same). Passes never overlap.
     */
    synchronized void seen(TaskRecord row) {
        String message = row.state().statusMessage();
        if (row.status().isTerminal() || message == null || Objects.equals(message, lastMessage)) {
            return;
        }
        lastMessage = message;
        ObjectNode params = FrontJson.object();
        params.set("progressToken", token);
        params.put("progress", ++count).put("message", message);
        session.notify(FrontJson.notification(METHOD, params));
    }
}
