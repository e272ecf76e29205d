package dev.mcptasks.mcp;

import java.util.LinkedHashMap;
import java.util.Map;

/** The last few request ids of some kind, oldest forgotten first. Thread-safe. */
final class RecentIds {
    private final Map<String, Boolean> ids;

    RecentIds(int capacity) {
        this.ids = new LinkedHashMap<>(64, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized void add(String id) {
        ids.put(id, Boolean.TRUE);
    }

    synchronized boolean contains(String id) {
        return ids.containsKey(id);
    }
}
