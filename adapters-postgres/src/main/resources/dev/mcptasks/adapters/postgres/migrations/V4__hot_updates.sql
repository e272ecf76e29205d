-- Version 4: room for HOT updates. Most writes of a task's life change no indexed column (a claim or renewal only
-- the lease, the submit-attempt record one timestamp, a delivery claim or dispatch mark the outbox's own columns). Such
-- an update is HOT (heap-only: the new row version stays on its page, no index entry is written, and it is logged as
-- a diff) when the page has room, and when no index key, expression or predicate reads a column it changes.

-- Room: inserts fill pages to 70 % only, the rest is kept for the new versions of their rows (HOT pruning recycles
-- the dead ones). Applies to pages filled from now on; existing ones keep their layout until rewritten.
ALTER TABLE tasks SET (fillfactor = 70);

-- The outbox scan's index had the delivery status in its predicate, so every delivery claim and dispatch mark
-- (pending -> claimed -> dispatched) wrote every index. Rows with a version still to deliver are exactly those with
-- event_version > notified_version (a new event makes the status pending while they are equal; delivering or dead-
-- lettering sets notified_version): keyed on that instead, only recording an event and settling a delivery move a
-- row in or out of it. The scan keeps both predicates (the status test is then a filter on the few rows it reads).
DROP INDEX tasks_notify_due;
CREATE INDEX tasks_notify_due ON tasks (next_notification_at, id) WHERE event_version > notified_version;
