package dev.mcptasks.testkit;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A thread-safe, in-memory {@link AuditLog}, stamping records with the given clock; passes the audit contract. */
public final class InMemoryAuditLog implements AuditLog {
    private final Clock clock;
    private final List<AuditRecord> records = new ArrayList<>(); // guarded by this, in recording order
    private long sequence; // guarded by this

    public InMemoryAuditLog(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized void append(AuditEntry entry) {
        Objects.requireNonNull(entry, "entry");
        records.add(new AuditRecord(++sequence, InMemoryStore.millis(clock.now()), entry.principal(),
                entry.channel(), entry.action(), entry.taskId(), entry.detail()));
    }

    @Override
    public synchronized List<AuditRecord> list(AuditQuery query) {
        List<AuditRecord> page = new ArrayList<>();
        for (int i = records.size() - 1; i >= 0 && page.size() < query.limit(); i--) {
            AuditRecord record = records.get(i);
            if ((query.taskId() == null || query.taskId().equals(record.taskId()))
                    && (query.principal() == null || query.principal().equals(record.principal()))) {
                page.add(record);
            }
        }
        return List.copyOf(page);
    }

    @Override
    public synchronized int purgeBefore(Instant cutoff, int limit) {
        RetentionStore.checkLimit(limit);
        int deleted = 0;
        for (var it = records.iterator(); it.hasNext() && deleted < limit;) {
            if (it.next().at().isBefore(cutoff)) {
                it.remove();
                deleted++;
            }
        }
        return deleted;
    }
}
