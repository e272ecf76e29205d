package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.audit.AuditEntry;
import dev.mcptasks.ports.audit.AuditLog;
import dev.mcptasks.ports.audit.AuditQuery;
import dev.mcptasks.ports.audit.AuditRecord;
import dev.mcptasks.ports.retention.RetentionStore;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The {@link AuditLog} in the task database's {@code audit} table, on the repository's pool. An append is one insert
 * that joins the group transaction open on the calling thread, if any.
 */
final class PostgresAuditLog implements AuditLog {
    private final PostgresStore store;
    private final Clock clock;

    PostgresAuditLog(PostgresStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void append(AuditEntry entry) {
        Objects.requireNonNull(entry, "entry");
        store.autoCommit("record " + entry.action().wireName() + " by '" + entry.principal() + "' in the audit log",
                AuditMapper.class, mapper -> mapper.insertAudit(Times.now(clock), entry.principal(),
                        entry.channel().wireName(), entry.action().wireName(),
                        entry.taskId() == null ? null : entry.taskId().value(), entry.detail()));
    }

    @Override
    public List<AuditRecord> list(AuditQuery query) {
        Objects.requireNonNull(query, "query");
        List<AuditRow> rows = store.autoCommit("list the audit log", AuditMapper.class,
                mapper -> mapper.selectAudit(query.taskId() == null ? null : query.taskId().value(),
                        query.principal(), query.limit()));
        return rows.stream().map(AuditRow::toRecord).toList();
    }

    @Override
    public int purgeBefore(Instant cutoff, int limit) {
        RetentionStore.checkLimit(limit);
        return store.autoCommit("purge audit records before " + cutoff, AuditMapper.class,
                mapper -> mapper.deleteAuditBefore(Times.millis(cutoff), limit));
    }
}
