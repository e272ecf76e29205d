-- Version 11: a task's claim history, for the operator's timeline (ports.repository.TaskHistory).
-- Append-only: the claim statement inserts the events of its claims (submit and cancel claims, and takeovers of any
-- phase; a poll claim of a free lease is not recorded) in the same statement, and no statement updates a row.
-- seq is the order of recording; at is the store's clock.
CREATE TABLE task_events (
    seq             bigint        GENERATED ALWAYS AS IDENTITY,
    task_id         varchar(128)  NOT NULL,
    at              timestamptz   NOT NULL,
    kind            varchar(16)   NOT NULL,
    phase           varchar(16)   NOT NULL,
    worker          varchar(256)  NOT NULL,
    previous_owner  varchar(256),
    previous_phase  varchar(16),
    CONSTRAINT task_events_pkey PRIMARY KEY (seq),
    CONSTRAINT task_events_kind_check CHECK (kind IN ('claimed', 'taken_over'))
);

CREATE INDEX task_events_by_task ON task_events (task_id, seq);

-- An event goes with its task, in whatever statement deletes the task (retention's purges): one set-based delete per
-- statement over the deleted ids (a transition table), not a foreign key's cascade, which deletes row by row.
CREATE FUNCTION mcp_tasks_delete_task_events() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM task_events e USING gone g WHERE e.task_id = g.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER task_events_go_with_their_task AFTER DELETE ON tasks
    REFERENCING OLD TABLE AS gone
    FOR EACH STATEMENT EXECUTE FUNCTION mcp_tasks_delete_task_events();
