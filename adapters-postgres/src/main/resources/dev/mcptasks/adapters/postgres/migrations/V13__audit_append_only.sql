-- Version 13: the audit log is append-only in the database, not only by the store's statements: an UPDATE of a
-- record is refused whoever runs it (a statement of a later release, an operator's SQL shell), so a record says what
-- was done as it was recorded. DELETE stays possible: the log's own retention removes records past their age.
CREATE FUNCTION mcp_tasks_refuse_audit_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'audit records are append-only: an update is refused'
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER audit_is_append_only BEFORE UPDATE ON audit
    FOR EACH STATEMENT
    EXECUTE FUNCTION mcp_tasks_refuse_audit_update();
