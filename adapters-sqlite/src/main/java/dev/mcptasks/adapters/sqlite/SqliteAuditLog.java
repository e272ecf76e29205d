package dev.mcptasks.adapters.sqlite;

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
 * The {@link AuditLog} in the task database's {@code audit} table, on the repository's pools. An append is one insert
 * on the writer, so it joins the group transaction open on the calling thread, if any.
 */
final class SqliteAuditLog implements AuditLog {
    private final SqliteDatabase database;
    private final Clock clock;

    SqliteAuditLog(SqliteDatabase database, Clock clock) {
        this.database = Objects.requireNonNull(database, "database");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public void append(AuditEntry entry) {
        Objects.requireNonNull(entry, "entry");
        database.write("record " + entry.action().wireName() + " by '" + entry.principal() + "' in the audit log",
                session -> session.mapper(AuditMapper.class).insertAudit(clock.now().toEpochMilli(),
                        entry.principal(), entry.channel().wireName(), entry.action().wireName(),
                        entry.taskId() == null ? null : entry.taskId().value(), entry.detail()));
    }

    @Override
    public List<AuditRecord> list(AuditQuery query) {
        Objects.requireNonNull(query, "query");
        List<AuditRow> rows = database.read("list the audit log", AuditMapper.class,
                mapper -> mapper.selectAudit(query.taskId() == null ? null : query.taskId().value(),
                        query.principal(), query.limit()));
        return rows.stream().map(AuditRow::toRecord).toList();
    }

    @Override
    public int purgeBefore(Instant cutoff, int limit) {
        RetentionStore.checkLimit(limit);
        return database.write("purge audit records before " + cutoff,
                session -> session.mapper(AuditMapper.class).deleteAuditBefore(cutoff.toEpochMilli(), limit));
    }
}
