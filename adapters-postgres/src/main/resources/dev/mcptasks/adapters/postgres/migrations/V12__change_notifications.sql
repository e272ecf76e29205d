-- Version 12: other processes' readers (a gateway whose calls a separate worker drives) are told of changes over
-- LISTEN/NOTIFY instead of finding them at their next poll. A row of a gateway principal whose status, message or
-- input request changed sends one notification on mcp_tasks_changes (payload: the schema, as on mcp_tasks_work);
-- PostgreSQL folds identical notifications of one transaction into one, so a group commit of many results costs one.
-- Rows of no principal (the command line, the Java API) and renewals, claims and outbox writes send nothing.
CREATE FUNCTION mcp_tasks_notify_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('mcp_tasks_changes', COALESCE(current_schema(), ''));
    RETURN NULL;
END;
$$;

CREATE TRIGGER tasks_changes_are_told AFTER UPDATE OF status, status_message, input_required ON tasks
    FOR EACH ROW
    WHEN (NEW.principal IS NOT NULL
          AND (OLD.status, OLD.status_message, OLD.input_required)
              IS DISTINCT FROM (NEW.status, NEW.status_message, NEW.input_required))
    EXECUTE FUNCTION mcp_tasks_notify_change();
