package dev.mcptasks.app.config;

import dev.mcptasks.core.retention.RetentionPolicy;
import dev.mcptasks.domain.TaskStatus;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code retention} object: per terminal status and for the audit log a duration ({@code "7d"}) or
 * {@code "forever"}, and the purge's pacing. Absent keys take {@link RetentionPolicy#defaults()}.
 */
final class RetentionConfigReader {
    static final Set<String> KEYS = Set.of("completed", "failed", "cancelled", "audit", "batchSize", "pauseMillis",
            "intervalSeconds");
    static final String FOREVER = "forever";

    private RetentionConfigReader() {}

    static RetentionPolicy read(JsonSection section) {
        section.requireOnly(KEYS);
        RetentionPolicy defaults = RetentionPolicy.defaults();
        Map<TaskStatus, Duration> byStatus = new EnumMap<>(TaskStatus.class);
        for (TaskStatus status : TaskStatus.TERMINAL) {
            Duration age = duration(section, status.wireName(), defaults.byStatus().get(status));
            if (age != null) {
                byStatus.put(status, age);
            }
        }
        Duration audit = duration(section, "audit", defaults.audit());
        int batchSize = section.intIn("batchSize", defaults.batchSize(), 1, 100_000);
        long pauseMillis = section.longIn("pauseMillis", defaults.pause().toMillis(), 0, 60_000);
        long intervalSeconds = section.longIn("intervalSeconds", defaults.interval().toSeconds(), 1, 86_400);
        return new RetentionPolicy(byStatus, audit, batchSize, Duration.ofMillis(pauseMillis),
                Duration.ofSeconds(intervalSeconds));
    }

    /** The duration at {@code key}, null for {@code "forever"}, {@code fallback} when absent. */
    private static Duration duration(JsonSection section, String key, Duration fallback) {
        if (!section.has(key)) {
            return fallback;
        }
        String text = section.requiredString(key);
        if (FOREVER.equals(text)) {
            return null;
        }
        try {
            return HumanDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(section.path(key), section.path(key) + ": " + e.getMessage()
                    + ", or \"" + FOREVER + "\"");
        }
    }
}
