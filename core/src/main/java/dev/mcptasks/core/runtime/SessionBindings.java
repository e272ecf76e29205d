package dev.mcptasks.core.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers this worker found to bind tasks to the session that created them, though not configured so: another
 * session could not see a task whose creator may be alive. Remembered for the life of the worker, so the tasks it
 * creates there afterwards are recorded as process-local (only this worker controls them while it is alive).
 */
final class SessionBindings {
    private static final Logger LOG = LoggerFactory.getLogger(SessionBindings.class);

    private final Set<String> bound = ConcurrentHashMap.newKeySet();

    boolean isBound(String server) {
        return bound.contains(server);
    }

    void detected(String server) {
        if (bound.add(server)) {
            LOG.warn("server '{}' binds tasks to the MCP session that created them: its tasks are now treated as"
                    + " process-local (set \"sessionBound\": true for it to say so from the start)", server);
        }
    }
}
