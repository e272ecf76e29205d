package dev.mcptasks.adapters.http;

import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.ports.transport.McpTransportException;
import java.util.ArrayList;
import java.util.List;

/** A response sink that keeps what it is given. */
final class RecordingSink implements ResponseSink {
    final List<SseEvent> events = new ArrayList<>();
    final List<String> bodies = new ArrayList<>();
    final List<McpTransportException> errors = new ArrayList<>();

    @Override
    public boolean onEvent(SseEvent event) {
        events.add(event);
        return true;
    }

    @Override
    public void onBody(String body) {
        bodies.add(body);
    }

    @Override
    public void onError(McpTransportException error) {
        errors.add(error);
    }
}
