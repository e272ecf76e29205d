-- Version 4: one partial index per control claim phase instead of one shared by all three. With the shared index a
-- backlog of one phase (thousands of due poll rows, say) sat in front of another phase's rows in the
-- (next_control_at, id) order, and every scan of that other phase stepped over it entry by entry. Each index holds
-- only the rows its phase could ever claim (its WHERE is the phase's status terms, which the claim statements repeat
-- literally so that the planner may use it; the three are disjoint, so a row is in at most one of them and a write
-- maintains no more index entries than before), and covers every column its claim predicates read, so a scan still
-- reads its index alone: finished rows are in none, and due but leased rows are skipped on the index entry. The
-- lease phase is in them for the scan to tell a recovery (an expired claim left on a due row) without a lookup.
DROP INDEX tasks_control_due;

CREATE INDEX tasks_submit_due ON tasks (next_control_at, id, lease_owner, lease_expires_at, lease_phase, status,
                                        remote_task_id, (input_responses IS NOT NULL), cancel_requested_at)
    WHERE (status = 'pending' OR (status = 'input_required' AND remote_task_id IS NULL))
      AND cancel_requested_at IS NULL;

CREATE INDEX tasks_poll_due ON tasks (next_control_at, id, lease_owner, lease_expires_at, lease_phase,
                                      endpoint_owner, status, remote_task_id, cancel_requested_at)
    WHERE status IN ('working', 'input_required') AND remote_task_id IS NOT NULL AND cancel_requested_at IS NULL;

CREATE INDEX tasks_cancel_due ON tasks (next_control_at, id, lease_owner, lease_expires_at, lease_phase,
                                        endpoint_owner, status, cancel_requested_at)
    WHERE cancel_requested_at IS NOT NULL AND status NOT IN ('completed', 'failed', 'cancelled');
