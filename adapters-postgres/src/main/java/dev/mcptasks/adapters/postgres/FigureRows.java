package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.NotificationStatus;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.TaskFigures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Reads the metrics figures: three grouped statements, each answered from an index or one pass over the table. */
final class FigureRows {
    private FigureRows() {
    }

    static TaskFigures read(TaskMapper mapper) {
        List<TaskFigures.Count> counts = new ArrayList<>();
        for (Map<String, Object> row : mapper.countByStatusAndServer()) {
            counts.add(new TaskFigures.Count(TaskStatus.fromWire((String) row.get("status")),
                    (String) row.get("server"), ((Number) row.get("n")).longValue()));
        }
        Map<ClaimPhase, Instant> due = new EnumMap<>(ClaimPhase.class);
        for (Map<String, Object> row : mapper.earliestDueByPhase()) {
            if (row != null && row.get("due") != null) {
                due.put(ClaimPhase.fromWire((String) row.get("phase")),
                        Instant.ofEpochMilli(((Number) row.get("due")).longValue()));
            }
        }
        Map<NotificationStatus, Long> outbox = new EnumMap<>(NotificationStatus.class);
        for (Map<String, Object> row : mapper.countOutbox()) {
            outbox.put(NotificationStatus.fromWire((String) row.get("status")), ((Number) row.get("n")).longValue());
        }
        return new TaskFigures(counts, due, outbox);
    }
}
