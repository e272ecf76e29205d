-- Version 6: the gateway principal that submitted a task (null for the CLI and the Java API). The gateway shows and
-- cancels a task only for its principal; its tasks/list pages through that principal's rows newest first, which the
-- partial index serves without reading other principals' rows. Adding a nullable column without a default rewrites
-- nothing.
ALTER TABLE tasks ADD COLUMN principal text;

CREATE INDEX tasks_by_principal ON tasks (principal, id) WHERE principal IS NOT NULL;
