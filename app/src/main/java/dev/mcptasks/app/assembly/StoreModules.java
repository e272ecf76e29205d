package dev.mcptasks.app.assembly;

import com.google.inject.Module;
import dev.mcptasks.adapters.postgres.PostgresModule;
import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.sqlite.SqliteModule;
import dev.mcptasks.adapters.sqlite.SqliteSettings;
import dev.mcptasks.app.config.ConfigException;
import dev.mcptasks.app.config.DatabaseConfig;

/** Chooses the whole store module from the database url: SQLite or PostgreSQL, never both, never mixed. */
public final class StoreModules {
    private StoreModules() {}

    public static Module forDatabase(DatabaseConfig database) {
        try {
            return switch (database.kind()) {
                case SQLITE -> new SqliteModule(sqliteSettings(database));
                case POSTGRES -> new PostgresModule(postgresSettings(database));
            };
        } catch (RuntimeException e) {
            // Both settings records name the url problem without the password (PostgreSQL redacts the query).
            throw new ConfigException("database.url", "database.url: " + e.getMessage());
        }
    }

    /** The SQLite store: default busy timeout and reader pool, the configured {@code synchronous}. */
    static SqliteSettings sqliteSettings(DatabaseConfig database) {
        return new SqliteSettings(database.url(), SqliteSettings.DEFAULT_BUSY_TIMEOUT,
                SqliteSettings.DEFAULT_READER_POOL_SIZE,
                SqliteSettings.Synchronous.valueOf(database.synchronous().name()));
    }

    /** The PostgreSQL store: the configured pool size, the default connect timeout. */
    static PostgresSettings postgresSettings(DatabaseConfig database) {
        PostgresSettings defaults = PostgresSettings.of(database.url(), database.user(), database.password());
        return new PostgresSettings(defaults.jdbcUrl(), defaults.user(), defaults.password(), database.poolSize(),
                defaults.connectTimeout());
    }
}
