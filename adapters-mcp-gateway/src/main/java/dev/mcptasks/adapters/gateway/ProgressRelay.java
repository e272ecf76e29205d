package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.driver.CallProgress;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.WorkSubscription;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The progress of a plain {@code tools/call} whose client asked for it ({@code _meta.progressToken}), as its own
 * {@code notifications/progress}. When this process's worker drives the call, each report the upstream sent is
 * relayed as it arrives, with the upstream's {@code progress}, {@code total} and {@code message} ({@link #live}).
 * Otherwise (another process's worker) each new progress message the worker stored for the task (at most one a
 * second) is relayed from the watcher's reads of the row, counted up from 1, so a message replaced between two reads
 * is not sent (progress is advisory). Whichever path relays first is the only one used, so the values a client sees
 * always increase.
 */
final class ProgressRelay {
    static final String METHOD = "notifications/progress";

    private final FrontSession session;
    private final JsonNode token;
    private String lastMessage;
    private long count;
    private boolean fromLive;
    private boolean fromRows;
    private boolean stopped;
    private WorkSubscription live = WorkSubscription.NONE;

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

    /** Relays the live reports {@code subscribe} delivers until {@link #stop}. */
    void listen(Function<Consumer<CallProgress>, WorkSubscription> subscribe) {
        WorkSubscription subscription = subscribe.apply(this::live);
        synchronized (this) {
            if (!stopped) {
                live = subscription;
                return;
            }
        }
        subscription.close();
    }

    /** The call was answered: nothing more is relayed. */
    void stop() {
        WorkSubscription ending;
        synchronized (this) {
            stopped = true;
            ending = live;
            live = WorkSubscription.NONE;
        }
        ending.close();
    }

    /** One report of the upstream, as this process's worker heard it; on a transport thread. */
    synchronized void live(CallProgress report) {
        if (stopped || fromRows) {
            return;
        }
        fromLive = true;
        ObjectNode params = FrontJson.object();
        params.set("progressToken", token);
        number(params, "progress", report.progress());
        if (report.total() != null) {
            number(params, "total", report.total());
        }
        if (report.message() != null) {
            params.put("message", report.message());
        }
        session.notify(FrontJson.notification(METHOD, params));
    }

    /**
     * One read of the call's row: a new message of a task not yet over is relayed (a direct call's row stays pending
     * while the call runs; its progress is stored all the same). Passes never overlap.
     */
    synchronized void seen(TaskRecord row) {
        String message = row.state().statusMessage();
        if (fromLive || stopped || row.status().isTerminal() || message == null
                || Objects.equals(message, lastMessage)) {
            return;
        }
        fromRows = true;
        lastMessage = message;
        ObjectNode params = FrontJson.object();
        params.set("progressToken", token);
        params.put("progress", ++count).put("message", message);
        session.notify(FrontJson.notification(METHOD, params));
    }

    private static void number(ObjectNode params, String field, double value) {
        if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
            params.put(field, (long) value);
        } else {
            params.put(field, value);
        }
    }
}
