-- Version 1: the task table, the workers table and the partial indexes of every claim scan.
CREATE TABLE tasks (
    id                             varchar(128)  NOT NULL,
    server_name                    varchar(256)  NOT NULL,
    tool_name                      varchar(256)  NOT NULL,
    arguments                      text          NOT NULL,
    driver                         varchar(256)  NOT NULL,
    requested_ttl_ms               bigint,
    created_at                     timestamptz   NOT NULL,

    status                         varchar(16)   NOT NULL,
    status_message                 text,
    result                         text,
    result_truncated               boolean       NOT NULL DEFAULT false,
    error                          text,
    error_code                     varchar(64),
    input_required                 text,
    remote_task_id                 text,
    remote_ttl_ms                  bigint,
    protocol_version               varchar(64),
    endpoint_owner                 varchar(128),
    updated_at                     timestamptz   NOT NULL,
    completed_at                   timestamptz,

    next_control_at                timestamptz,
    last_polled_at                 timestamptz,
    submit_attempt_count           integer       NOT NULL DEFAULT 0,
    poll_attempt_count             integer       NOT NULL DEFAULT 0,
    cancel_attempt_count           integer       NOT NULL DEFAULT 0,
    consecutive_error_count        integer       NOT NULL DEFAULT 0,
    last_poll_error                text,
    last_cancel_error              text,
    cancel_requested_at            timestamptz,
    submit_attempted_at            timestamptz,

    lease_phase                    varchar(8),
    lease_owner                    varchar(128),
    lease_token                    varchar(128),
    lease_expires_at               timestamptz,

    notification_status            varchar(16)   NOT NULL DEFAULT 'none',
    event_fingerprint              varchar(64),
    event_payload                  text,
    event_version                  bigint        NOT NULL DEFAULT 0,
    notified_version               bigint        NOT NULL DEFAULT 0,
    dispatch_version               bigint        NOT NULL DEFAULT 0,
    dispatch_attempt               integer       NOT NULL DEFAULT 0,
    dispatch_event                 text,
    notification_attempt_count     integer       NOT NULL DEFAULT 0,
    notification_error             text,
    next_notification_at           timestamptz,
    notification_lease_owner       varchar(128),
    notification_lease_token       varchar(128),
    notification_lease_expires_at  timestamptz,

    CONSTRAINT tasks_pkey PRIMARY KEY (id),
    CONSTRAINT tasks_server_remote_task_key UNIQUE (server_name, remote_task_id),
    CONSTRAINT tasks_status_check CHECK (status IN
        ('pending', 'working', 'input_required', 'completed', 'failed', 'cancelled')),
    CONSTRAINT tasks_lease_phase_check CHECK (lease_phase IN ('submit', 'poll', 'cancel')),
    CONSTRAINT tasks_notification_status_check CHECK (notification_status IN
        ('none', 'pending', 'claimed', 'dispatched', 'retry', 'delivered', 'dead_letter'))
);

-- Claim scans: each index holds only the rows its phase can ever claim, so terminal rows (the bulk of a long-lived
-- table) are never visited. The WHERE clauses must stay textually identical to the claim statements' predicates.
CREATE INDEX tasks_submit_due ON tasks (next_control_at, id)
    WHERE status = 'pending' AND cancel_requested_at IS NULL;
CREATE INDEX tasks_poll_due ON tasks (next_control_at, id)
    WHERE status IN ('working', 'input_required') AND cancel_requested_at IS NULL;
CREATE INDEX tasks_cancel_due ON tasks (next_control_at, id)
    WHERE status IN ('pending', 'working', 'input_required') AND cancel_requested_at IS NOT NULL;
CREATE INDEX tasks_notify_due ON tasks (next_notification_at, id)
    WHERE notification_status IN ('pending', 'claimed', 'dispatched', 'retry');

-- Operator listings: newest first within one status or one server.
CREATE INDEX tasks_status_id ON tasks (status, id);
CREATE INDEX tasks_server_id ON tasks (server_name, id);

CREATE TABLE workers (
    id            varchar(128) NOT NULL,
    host          varchar(256) NOT NULL,
    pid           bigint       NOT NULL,
    started_at    timestamptz  NOT NULL,
    last_seen_at  timestamptz  NOT NULL,
    CONSTRAINT workers_pkey PRIMARY KEY (id)
);
