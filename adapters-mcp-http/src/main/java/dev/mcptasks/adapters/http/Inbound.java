package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.ports.transport.McpTransport.Listener;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands inbound messages from every stream to the listener: drops SSE events whose id was already delivered (a
 * resumed stream, or server-everything replaying all streams), reports non-JSON data as malformed, and stays silent
 * once the transport has ended. Event ids are taken as unique across all streams of the session, as the spec demands.
 * While requests await answers on SSE streams, each event's answer id goes to {@link Answers}, which drops a second
 * answer to a request still in flight (a replay under a new event id); a repeat after its request finished reaches
 * the session, which correlates by JSON-RPC id and must ignore it.
 */
final class Inbound implements ResponseSink {
    private static final Logger log = LoggerFactory.getLogger(Inbound.class);
    private static final int REMEMBERED_IDS = 4096;

    private final String server;
    private final Listener listener;
    private final BooleanSupplier open;
    private final Answers answers;
    private final Map<String, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_IDS;
        }
    };

    /** The requests whose answers may arrive on an SSE stream. */
    interface Answers {
        /** Whether any request is waiting for an answer now (else events are not parsed for ids). */
        boolean awaiting();

        /** The answer to request {@code id} arrived; false when that request had its answer already. */
        boolean arrived(String id);
    }

    Inbound(String server, Listener listener, BooleanSupplier open, Answers answers) {
        this.server = server;
        this.listener = listener;
        this.open = open;
        this.answers = answers;
    }

    @Override
    public boolean onEvent(SseEvent event) {
        if (event.type() != null && !event.type().equals("message")) {
            log.debug("server '{}' sent an SSE event of type '{}'; ignored", server, event.type());
            return false;
        }
        if (event.id() != null) {
            synchronized (seen) {
                if (seen.put(event.id(), Boolean.TRUE) != null) {
                    log.debug("server '{}' repeated SSE event {}; dropped", server, event.id());
                    return false;
                }
            }
        }
        if (answers.awaiting()) {
            String answerTo = JsonRpcIds.answerId(event.data());
            if (answerTo != null && !answers.arrived(answerTo)) {
                log.debug("server '{}' repeated the answer to request {}; dropped", server, answerTo);
                return false;
            }
        }
        return deliver(event.data());
    }

    @Override
    public void onBody(String body) {
        deliver(body);
    }

    @Override
    public void onError(McpTransportException error) {
        log.debug("{}", error.getMessage());
        if (!open.getAsBoolean()) {
            return;
        }
        try {
            listener.onError(error);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on an error report", server, e);
        }
    }

    /** Hands {@code message} to the listener; false when it was not a JSON message or the transport has ended. */
    private boolean deliver(String message) {
        String text = message.strip();
        if (text.isEmpty()) {
            return false;
        }
        if (text.charAt(0) != '{' && text.charAt(0) != '[') {
            onError(new McpTransportException(Kind.MALFORMED, "server '" + server + "' sent a message that is not JSON: "
                    + (text.length() <= 80 ? text : text.substring(0, 80) + "...")));
            return false;
        }
        if (!open.getAsBoolean()) {
            return false;
        }
        try {
            listener.onMessage(text);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on a message", server, e);
        }
        return true;
    }
}
