package dev.mcptasks.http;

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
 * Responses replayed under new event ids are not de-duplicated here: the session correlates by JSON-RPC id and must
 * ignore a second answer.
 */
final class Inbound implements ResponseSink {
    private static final Logger log = LoggerFactory.getLogger(Inbound.class);
    private static final int REMEMBERED_IDS = 4096;

    private final String server;
    private final Listener listener;
    private final BooleanSupplier open;
    private final Map<String, Boolean> seen = new LinkedHashMap<>(256, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_IDS;
        }
    };

    Inbound(String server, Listener listener, BooleanSupplier open) {
        this.server = server;
        this.listener = listener;
        this.open = open;
    }

    @Override
    public void onEvent(SseEvent event) {
        if (event.type() != null && !event.type().equals("message")) {
            log.debug("server '{}' sent an SSE event of type '{}'; ignored", server, event.type());
            return;
        }
        if (event.id() != null) {
            synchronized (seen) {
                if (seen.put(event.id(), Boolean.TRUE) != null) {
                    log.debug("server '{}' repeated SSE event {}; dropped", server, event.id());
                    return;
                }
            }
        }
        deliver(event.data());
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

    private void deliver(String message) {
        String text = message.strip();
        if (text.isEmpty()) {
            return;
        }
        if (text.charAt(0) != '{' && text.charAt(0) != '[') {
            onError(new McpTransportException(Kind.MALFORMED, "server '" + server + "' sent a message that is not JSON: "
                    + (text.length() <= 80 ? text : text.substring(0, 80) + "...")));
            return;
        }
        if (!open.getAsBoolean()) {
            return;
        }
        try {
            listener.onMessage(text);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on a message", server, e);
        }
    }
}
