-- Version 1: the task table, its claim indexes and the workers table. Instants are INTEGER epoch milliseconds.
CREATE TABLE tasks (
    id                              TEXT    NOT NULL PRIMARY KEY,
    server_name                     TEXT    NOT NULL,
    tool_name                       TEXT    NOT NULL,
    arguments                       TEXT    NOT NULL,
    driver                          TEXT    NOT NULL,
    requested_ttl_ms                INTEGER,
    created_at                      INTEGER NOT NULL,

    status                          TEXT    NOT NULL
        CHECK (status IN ('pending', 'working', 'input_required', 'completed', 'failed', 'cancelled')),
    status_message                  TEXT,
    result                          TEXT,
    result_truncated                INTEGER NOT NULL DEFAULT 0 CHECK (result_truncated IN (0, 1)),
    error                           TEXT,
    error_code                      TEXT,
    input_required                  TEXT,
    remote_task_id                  TEXT,
    remote_ttl_ms                   INTEGER,
    protocol_version                TEXT,
    endpoint_owner                  TEXT,
    updated_at                      INTEGER NOT NULL,
    completed_at                    INTEGER,

    next_control_at                 INTEGER,
    last_polled_at                  INTEGER,
    submit_attempt_count            INTEGER NOT NULL DEFAULT 0,
    poll_attempt_count              INTEGER NOT NULL DEFAULT 0,
    cancel_attempt_count            INTEGER NOT NULL DEFAULT 0,
    consecutive_error_count         INTEGER NOT NULL DEFAULT 0,
    last_poll_error                 TEXT,
    last_cancel_error               TEXT,
    cancel_requested_at             INTEGER,
    submit_attempted_at             INTEGER,

    lease_phase                     TEXT CHECK (lease_phase IN ('submit', 'poll', 'cancel')),
    lease_owner                     TEXT,
    lease_token                     TEXT,
    lease_expires_at                INTEGER,

    notification_status             TEXT    NOT NULL DEFAULT 'none'
        CHECK (notification_status IN ('none', 'pending', 'claimed', 'dispatched', 'retry', 'delivered',
                                       'dead_letter')),
    event_fingerprint               TEXT,
    event_payload                   TEXT,
    event_version                   INTEGER NOT NULL DEFAULT 0,
    notified_version                INTEGER NOT NULL DEFAULT 0,
    dispatch_version                INTEGER NOT NULL DEFAULT 0,
    dispatch_attempt                INTEGER NOT NULL DEFAULT 0,
    dispatch_event                  TEXT,
    notification_attempt_count      INTEGER NOT NULL DEFAULT 0,
    notification_error              TEXT,
    next_notification_at            INTEGER,
    notification_lease_owner        TEXT,
    notification_lease_token        TEXT,
    notification_lease_expires_at   INTEGER
);

-- A remote id is unique per server; NULLs (pending rows) are distinct in SQLite unique indexes.
CREATE UNIQUE INDEX tasks_remote_id ON tasks (server_name, remote_task_id);

-- Control claim scans: only nonterminal rows are indexed, so finished rows never slow a scan down, and the index
-- covers every column of the eligibility predicates, so rows that are due but leased (in flight) are skipped on the
-- index entry without a table lookup. Every claim query repeats the status term literally so that the planner may use
-- this partial index.
CREATE INDEX tasks_control_due ON tasks (next_control_at, id, status, cancel_requested_at, lease_owner,
                                         lease_expires_at, endpoint_owner)
    WHERE status NOT IN ('completed', 'failed', 'cancelled');

-- Notification claim scans: only rows with an outbox delivery to make, covering the eligibility predicates.
CREATE INDEX tasks_outbox_due ON tasks (next_notification_at, id, notification_status, event_version,
                                        notified_version, notification_lease_owner, notification_lease_expires_at)
    WHERE notification_status IN ('pending', 'claimed', 'dispatched', 'retry');

CREATE TABLE workers (
    id              TEXT    NOT NULL PRIMARY KEY,
    host            TEXT    NOT NULL,
    pid             INTEGER NOT NULL,
    started_at      INTEGER NOT NULL,
    last_seen_at    INTEGER NOT NULL
);
