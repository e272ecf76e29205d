-- Version 5: durable credentials (OAuth tokens, registered clients) shared by every worker of the deployment. The
-- value is opaque sealed bytes (encrypted by the OAuth adapter); version starts at 1 and grows by one per write, and
-- every write is a compare-and-set on it. updated_at is INTEGER epoch milliseconds, as every instant here.
CREATE TABLE credentials (
    key         TEXT    NOT NULL PRIMARY KEY,
    version     INTEGER NOT NULL CHECK (version >= 1),
    sealed      BLOB    NOT NULL,
    updated_at  INTEGER NOT NULL
);
