-- Version 7: the upstream MCP session (Mcp-Session-Id) in which the remote task was created, or null when the
-- transport has no sessions. A server that binds its tasks to the creating session answers for a task only in that
-- session, so a worker that takes the task over from a dead creator speaks in it again. Written only by the submit
-- write, with the other columns it sets; no index holds it.
ALTER TABLE tasks ADD COLUMN endpoint_session TEXT;
