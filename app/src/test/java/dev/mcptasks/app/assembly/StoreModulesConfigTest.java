package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.adapters.sqlite.SqliteSettings;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The configured store settings reach the adapters: the PostgreSQL pool size and SQLite's {@code synchronous}. */
class StoreModulesConfigTest {
    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("."));

    @Test
    void thePostgresPoolIsTheConfiguredOrSlotSizedOne() {
        AppConfig sized = loader.parse("t.json", "{\"database\": {\"url\": \"jdbc:postgresql://h/db\","
                + " \"user\": \"u\"}, \"runtime\": {\"maxConcurrentControlCalls\": 12}}");
        AppConfig set = loader.parse("t.json", "{\"database\": {\"url\": \"jdbc:postgresql://h/db\","
                + " \"poolSize\": 7}}");

        PostgresSettings settings = StoreModules.postgresSettings(sized.database());
        assertThat(settings.poolSize()).isEqualTo(16);
        assertThat(settings.user()).isEqualTo("u");
        assertThat(settings.connectTimeout()).isEqualTo(PostgresSettings.of("jdbc:postgresql://h/db", null, null)
                .connectTimeout());
        assertThat(StoreModules.postgresSettings(set.database()).poolSize()).isEqualTo(7);
    }

    @Test
    void sqliteGetsTheConfiguredSynchronous() {
        AppConfig normal = loader.parse("t.json", "{\"database\": {\"url\": \"jdbc:sqlite:x.db\","
                + " \"synchronous\": \"NORMAL\"}}");

        assertThat(StoreModules.sqliteSettings(normal.database()).synchronous())
                .isEqualTo(SqliteSettings.Synchronous.NORMAL);
        assertThat(StoreModules.sqliteSettings(AppConfig.defaults().database()).synchronous())
                .isEqualTo(SqliteSettings.Synchronous.FULL);
    }
}
