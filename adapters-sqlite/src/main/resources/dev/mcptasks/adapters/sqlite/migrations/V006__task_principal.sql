-- Version 6: the gateway principal that submitted a task (null for the CLI and the Java API). The gateway shows and
-- cancels a task only for its principal; its tasks/list pages through that principal's rows newest first, which the
-- index serves without reading other principals' rows.
ALTER TABLE tasks ADD COLUMN principal TEXT;

CREATE INDEX tasks_by_principal ON tasks (principal, id) WHERE principal IS NOT NULL;
