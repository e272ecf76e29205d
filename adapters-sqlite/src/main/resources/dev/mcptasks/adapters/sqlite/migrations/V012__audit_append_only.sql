-- Version 12: the audit log is append-only in the database, not only by the store's statements: an UPDATE of a
-- record is refused whoever runs it (a statement of a later release, an operator's SQL shell), so a record says what
-- was done as it was recorded. DELETE stays possible: the log's own retention removes records past their age.
-- on one line: the migrator splits scripts at a semicolon that ends a line
CREATE TRIGGER audit_is_append_only BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'audit records are append-only: an update is refused'); END;
