package dev.mcptasks.app.assembly;

import com.google.inject.Module;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.config.DatabaseConfig;
import dev.mcptasks.postgres.PostgresModule;
import dev.mcptasks.postgres.PostgresSettings;
import dev.mcptasks.sqlite.SqliteModule;
import dev.mcptasks.sqlite.SqliteSettings;

/** Chooses the whole store module from the database url: SQLite or PostgreSQL, never both, never mixed. */
public final class StoreModules {
    private StoreModules() {}

    public static Module forDatabase(DatabaseConfig database) {
        try {
            return switch (database.kind()) {
                case SQLITE -> new SqliteModule(new SqliteSettings(database.url(),
                        SqliteSettings.DEFAULT_BUSY_TIMEOUT, SqliteSettings.DEFAULT_READER_POOL_SIZE));
                case POSTGRES -> new PostgresModule(PostgresSettings.of(database.url(), database.user(),
                        database.password()));
            };
        } catch (RuntimeException e) {
            // Both settings records name the url problem without the password (PostgreSQL redacts the query).
            throw new ConfigException("database.url", "database.url: " + e.getMessage());
        }
    }
}
