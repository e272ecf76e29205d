package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Instant;

/** A worker as stored, with its last heartbeat. */
public record WorkerRecord(WorkerId id, String host, long pid, Instant startedAt, Instant lastSeenAt) {}
