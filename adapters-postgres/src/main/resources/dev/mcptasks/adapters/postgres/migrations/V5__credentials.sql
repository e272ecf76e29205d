-- Version 5: durable credentials (OAuth tokens, registered clients) shared by every worker of the deployment. The
-- value is opaque sealed bytes (encrypted by the OAuth adapter); version starts at 1 and grows by one per write, and
-- every write is a compare-and-set on it: one INSERT ... ON CONFLICT DO NOTHING or one UPDATE ... WHERE version.
CREATE TABLE credentials (
    key         text         NOT NULL PRIMARY KEY,
    version     bigint       NOT NULL CHECK (version >= 1),
    sealed      bytea        NOT NULL,
    updated_at  timestamptz  NOT NULL
);
