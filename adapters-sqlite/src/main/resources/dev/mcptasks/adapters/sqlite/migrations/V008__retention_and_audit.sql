-- Version 8: retention of finished tasks and the audit log.
-- Retention deletes finished rows by status and finish time, a batch at a time. This index holds finished rows only
-- (a row enters it once, when it finishes, and no claim scan reads it), so a purge batch finds its candidates in
-- order without reading a live row, and the claim path maintains nothing more than one entry per finished task.
CREATE INDEX tasks_finished ON tasks (status, completed_at)
    WHERE status IN ('completed', 'failed', 'cancelled');

-- A task's requested ttl counts from its creation (as MCP counts it): the end of it, for finished rows with a ttl.
-- The purge statement repeats the indexed expression verbatim so that the planner may use it.
CREATE INDEX tasks_ttl_end ON tasks ((created_at + requested_ttl_ms))
    WHERE status IN ('completed', 'failed', 'cancelled') AND requested_ttl_ms IS NOT NULL;

-- Who did what, append-only: no statement of the store updates a row; rows leave only by the log's own retention.
-- seq is the order of recording; at is the store's clock, INTEGER epoch milliseconds as every instant here.
CREATE TABLE audit (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    at          INTEGER NOT NULL,
    principal   TEXT    NOT NULL,
    channel     TEXT    NOT NULL CHECK (channel IN ('gateway', 'cli', 'admin', 'worker')),
    action      TEXT    NOT NULL,
    task_id     TEXT,
    detail      TEXT
);

CREATE INDEX audit_by_task ON audit (task_id, seq) WHERE task_id IS NOT NULL;
CREATE INDEX audit_by_principal ON audit (principal, seq);
CREATE INDEX audit_by_time ON audit (at);
