-- Version 3: input rounds of the 2026-07-28 tasks extension.
-- The user's answers not yet delivered to the server: a JSON object from input-request key to the answer, kept as
-- the canonical text the store wrote (text, not jsonb, so a claim can compare what it delivered byte for byte).
ALTER TABLE tasks ADD COLUMN input_responses text;
-- The server's opaque state of a tools/call that asked for input before creating a task (no remote id yet).
ALTER TABLE tasks ADD COLUMN request_state text;

-- The submit and poll scans gained terms: a submit claim also takes an input round before any task once it has
-- answers, and a poll claim never takes a row without a remote id. Their partial indexes follow, predicates again
-- textually identical to the claim statement's, so terminal rows stay out of every scan.
DROP INDEX tasks_submit_due;
CREATE INDEX tasks_submit_due ON tasks (next_control_at, id)
    WHERE (status = 'pending'
           OR (status = 'input_required' AND remote_task_id IS NULL AND input_responses IS NOT NULL))
      AND cancel_requested_at IS NULL;
DROP INDEX tasks_poll_due;
CREATE INDEX tasks_poll_due ON tasks (next_control_at, id)
    WHERE status IN ('working', 'input_required') AND remote_task_id IS NOT NULL AND cancel_requested_at IS NULL;
