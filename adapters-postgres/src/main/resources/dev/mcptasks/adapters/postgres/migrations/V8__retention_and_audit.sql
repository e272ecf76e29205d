-- Version 8: retention of finished tasks and the audit log.
-- Retention deletes finished rows by status and finish time, a batch at a time. This index holds finished rows only
-- (a row enters it once, when it finishes; status and completed_at change together then, and no later write of a
-- finished row changes either, so the writes that were HOT stay HOT), and no claim scan reads it.
CREATE INDEX tasks_finished ON tasks (status, completed_at)
    WHERE status IN ('completed', 'failed', 'cancelled');

-- A task's requested ttl counts from its creation (as MCP counts it). timestamptz + interval is only STABLE in
-- general (a day or month interval depends on the time zone); an interval of milliseconds does not, so this wrapper
-- is truly IMMUTABLE and may be indexed. The purge statement calls it with the same arguments to use the index.
CREATE FUNCTION mcp_tasks_ttl_end(created timestamptz, ttl_ms bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS 'SELECT created + ttl_ms * interval ''1 millisecond''';

CREATE INDEX tasks_ttl_end ON tasks (mcp_tasks_ttl_end(created_at, requested_ttl_ms))
    WHERE status IN ('completed', 'failed', 'cancelled') AND requested_ttl_ms IS NOT NULL;

-- Who did what, append-only: no statement of the store updates a row; rows leave only by the log's own retention.
-- seq is the order of recording; at is the store's clock.
CREATE TABLE audit (
    seq        bigint        GENERATED ALWAYS AS IDENTITY,
    at         timestamptz   NOT NULL,
    principal  varchar(256)  NOT NULL,
    channel    varchar(16)   NOT NULL,
    action     varchar(32)   NOT NULL,
    task_id    varchar(128),
    detail     text,
    CONSTRAINT audit_pkey PRIMARY KEY (seq),
    CONSTRAINT audit_channel_check CHECK (channel IN ('gateway', 'cli', 'admin', 'worker'))
);

CREATE INDEX audit_by_task ON audit (task_id, seq) WHERE task_id IS NOT NULL;
CREATE INDEX audit_by_principal ON audit (principal, seq);
CREATE INDEX audit_by_time ON audit (at);
