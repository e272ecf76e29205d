-- Version 7: the upstream MCP session (Mcp-Session-Id) in which the remote task was created, or null when the
-- transport has no sessions. A server that binds its tasks to the creating session answers for a task only in that
-- session, so a worker that takes the task over from a dead creator speaks in it again. The server chooses the value,
-- as it chooses remote_task_id: text, so no length it picks can fail the write that records the created task. Written
-- only by the submit write, with the other columns it sets; no index reads it, so the writes stay HOT. Adding a
-- nullable column without a default rewrites nothing.
ALTER TABLE tasks ADD COLUMN endpoint_session text;
