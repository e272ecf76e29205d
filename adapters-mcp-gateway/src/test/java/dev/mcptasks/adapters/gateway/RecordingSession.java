package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A 2025-11-25 session that keeps what it was sent. */
final class RecordingSession implements FrontSession {
    private final String id;
    final List<ObjectNode> notifications = new CopyOnWriteArrayList<>();

    RecordingSession(String id) {
        this.id = id;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public void notify(ObjectNode notification) {
        notifications.add(notification);
    }

    List<String> statuses() {
        return notifications.stream().map(n -> n.path("params").path("status").asText()).toList();
    }
}
