package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.WorkerId;
import java.time.Instant;

/** A worker as it registers itself. */
public record WorkerInfo(WorkerId id, String host, long pid, Instant startedAt) {}
