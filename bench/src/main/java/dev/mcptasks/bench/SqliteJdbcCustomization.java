package dev.mcptasks.bench;

import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;

/**
 * db-scheduler on SQLite: it has no SQLite customization, and its default limits a due query with ANSI
 * {@code OFFSET ... FETCH FIRST}, which SQLite does not parse; everything else (instants as written by
 * sqlite-jdbc, fetch-and-lock-on-execute) is the default's.
 */
final class SqliteJdbcCustomization extends DefaultJdbcCustomization {
    SqliteJdbcCustomization() {
        super(false);
    }

    @Override
    public String getQueryLimitPart(int limit) {
        return " LIMIT " + limit;
    }

    @Override
    public String getName() {
        return "SQLite (bench)";
    }
}
