package dev.mcptasks.ports.audit;

import java.time.Instant;
import java.util.List;

/**
 * The append-only record of who did what. Rows are never changed; they leave only through {@link #purgeBefore}, the
 * log's own retention, a bounded batch per call.
 */
public interface AuditLog {
    /** A log that records nothing, for embeddings that keep no audit. */
    AuditLog NONE = new AuditLog() {
        @Override
        public void append(AuditEntry entry) {}

        @Override
        public List<AuditRecord> list(AuditQuery query) {
            return List.of();
        }

        @Override
        public int purgeBefore(Instant cutoff, int limit) {
            return 0;
        }
    };

    /** Records {@code entry} at the store's now; joins the group transaction open on the calling thread, if any. */
    void append(AuditEntry entry);

    /** The newest records that match {@code query}, newest first. */
    List<AuditRecord> list(AuditQuery query);

    /** Deletes up to {@code limit} records made before {@code cutoff}; how many it deleted. */
    int purgeBefore(Instant cutoff, int limit);
}
