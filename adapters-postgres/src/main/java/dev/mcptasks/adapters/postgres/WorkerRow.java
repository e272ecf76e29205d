package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.WorkerRecord;
import java.time.Instant;

/** One {@code workers} row as MyBatis fills it. */
final class WorkerRow {
    String id;
    String host;
    long pid;
    Instant startedAt;
    Instant lastSeenAt;

    WorkerRecord toRecord() {
        return new WorkerRecord(WorkerId.of(id), host, pid, startedAt, lastSeenAt);
    }
}
