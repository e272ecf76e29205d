-- Version 3: input rounds of the 2026-07-28 tasks extension.
-- The user's answers not yet delivered to the server: a canonical JSON object from input-request key to the answer.
ALTER TABLE tasks ADD COLUMN input_responses TEXT;
-- The server's opaque state of a tools/call that asked for input before creating a task (no remote id yet).
ALTER TABLE tasks ADD COLUMN request_state TEXT;

-- The control index of version 1 with the two terms the claim predicates gained: poll scans need a remote id, and
-- submit scans take an input round before any task (input_required, no remote id) only once it has answers. Both
-- are in the index (the answers as the indexed expression the claim queries repeat verbatim, not their text), so
-- every control scan still reads this partial index alone: finished rows are not in it, and rows that are due but
-- leased are skipped on the index entry without a table lookup.
DROP INDEX tasks_control_due;
CREATE INDEX tasks_control_due ON tasks (next_control_at, id, status, cancel_requested_at, lease_owner,
                                         lease_expires_at, endpoint_owner, remote_task_id,
                                         (input_responses IS NOT NULL))
    WHERE status NOT IN ('completed', 'failed', 'cancelled');
