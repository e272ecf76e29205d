-- Version 11: a task's claim history, for the operator's timeline (ports.repository.TaskHistory).
-- Append-only: a claim scan inserts the events of its claims in its own transaction (submit and cancel claims, and
-- takeovers of any phase; a poll claim of a free lease is not recorded), and no statement updates a row. An event
-- goes with its task: the trigger below deletes it in whatever statement deletes the task (retention's purges).
-- seq is the order of recording (the rowid: no AUTOINCREMENT bookkeeping on the claim path); at is the store's clock,
-- INTEGER epoch milliseconds as every instant here.
CREATE TABLE task_events (
    seq             INTEGER PRIMARY KEY,
    task_id         TEXT    NOT NULL,
    at              INTEGER NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('claimed', 'taken_over')),
    phase           TEXT    NOT NULL,
    worker          TEXT    NOT NULL,
    previous_owner  TEXT,
    previous_phase  TEXT
);

CREATE INDEX task_events_by_task ON task_events (task_id, seq);

-- on one line: the migrator splits scripts at a semicolon that ends a line
CREATE TRIGGER task_events_go_with_their_task AFTER DELETE ON tasks BEGIN DELETE FROM task_events WHERE task_id = OLD.id; END;
