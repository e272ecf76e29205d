-- The worker whose create request made the remote task, whatever its endpoint: a worker that cannot see a task on
-- its own session asks whether this creator may still be alive before declaring the task lost.
ALTER TABLE tasks ADD COLUMN created_by TEXT;
