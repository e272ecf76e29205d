-- Version 13: a task's first submit claim is kept on its row, not as a row of task_events (V011). The claim updates
-- the task's row anyway, so keeping it there writes no other page: the history's insert and its index were a tenth of
-- the claim scan's commit on a synced file. Later claims (after a release, takeovers, cancel claims) still go to
-- task_events; the history reads this claim first. Set by the claim that takes submit_attempt_count from 0 to 1, or by
-- a create that is already claimed; a row claimed before this version keeps its first claim in task_events.
ALTER TABLE tasks ADD COLUMN first_claimed_by TEXT;
ALTER TABLE tasks ADD COLUMN first_claimed_at INTEGER;
