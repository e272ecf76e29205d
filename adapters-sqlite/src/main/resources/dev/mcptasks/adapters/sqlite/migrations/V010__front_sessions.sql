-- Version 9: the gateway's front sessions, so a client keeps its Mcp-Session-Id across a gateway restart and across
-- gateway processes on one database. Only what the handshake settled is kept (no stream, no request in flight).
-- Times are INTEGER epoch milliseconds as every instant here; last_used_at is written at most about once a minute.
CREATE TABLE front_sessions (
    id                TEXT    PRIMARY KEY NOT NULL,
    principal         TEXT    NOT NULL,
    protocol_version  TEXT    NOT NULL,
    capabilities      TEXT    NOT NULL,
    created_at        INTEGER NOT NULL,
    last_used_at      INTEGER NOT NULL
);

-- The purge deletes sessions unused since a cutoff, a batch at a time, in order of last use.
CREATE INDEX front_sessions_by_last_use ON front_sessions (last_used_at);
