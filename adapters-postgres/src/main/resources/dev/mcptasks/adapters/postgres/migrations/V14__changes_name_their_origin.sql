-- Version 14: a change notification (V12) names the process whose transaction sent it after the schema
-- ("schema/origin"), so a process's listener leaves out its own changes, which it announces to its readers at commit
-- already: told of its own commits, a gateway read every watched row again at each result it stored itself. The
-- origin is the session setting mcp_tasks.origin, which each store sets on its pool's connections; a session without
-- it (another tool, an older build) sends an empty origin, which every process takes for a foreign change.
CREATE OR REPLACE FUNCTION mcp_tasks_notify_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('mcp_tasks_changes',
                      COALESCE(current_schema(), '') || '/' || COALESCE(current_setting('mcp_tasks.origin', true), ''));
    RETURN NULL;
END;
$$;
