-- Version 9: the gateway's front sessions, so a client keeps its Mcp-Session-Id across a gateway restart and across
-- gateway processes on one database. Only what the handshake settled is kept (no stream, no request in flight);
-- last_used_at is written at most about once a minute per session.
CREATE TABLE front_sessions (
    id                varchar(128)  NOT NULL,
    principal         varchar(256)  NOT NULL,
    protocol_version  varchar(32)   NOT NULL,
    capabilities      text          NOT NULL,
    created_at        timestamptz   NOT NULL,
    last_used_at      timestamptz   NOT NULL,
    CONSTRAINT front_sessions_pkey PRIMARY KEY (id)
);

-- The purge deletes sessions unused since a cutoff, a batch at a time, in order of last use.
CREATE INDEX front_sessions_by_last_use ON front_sessions (last_used_at);
