package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The control loop's idle tick ({@code runtime.tickMillis}), the PostgreSQL pool ({@code database.poolSize}, sized
 * from the slots by default) and SQLite's durability ({@code database.synchronous}); a bad value is a one-line error
 * naming its key.
 */
class StoreAndTickConfigTest {
    private static final String POSTGRES = "\"url\": \"jdbc:postgresql://db/tasks\"";

    private final ConfigLoader loader = new ConfigLoader(Map.<String, String>of()::get, Path.of("."));

    private AppConfig parse(String json) {
        return loader.parse("test.json", json);
    }

    @Test
    void theTickDefaultsToOneSecondAndReachesTheRuntime() {
        assertThat(parse("{}").runtime().tickMillis()).isEqualTo(1000);
        assertThat(parse("{}").runtime().toSettings().tickInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(parse("{\"runtime\": {\"tickMillis\": 10}}").runtime().toSettings().tickInterval())
                .isEqualTo(Duration.ofMillis(10));
        assertThat(parse("{\"runtime\": {\"tickMillis\": 60000}}").runtime().toSettings().tickInterval())
                .isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aTickOutOfRangeIsRefusedNamingTheKey() {
        for (String value : new String[] {"9", "0", "60001", "-1"}) {
            assertError("{\"runtime\": {\"tickMillis\": " + value + "}}", "runtime.tickMillis",
                    "runtime.tickMillis must be between 10 and 60000, was " + value);
        }
        assertError("{\"runtime\": {\"tickMillis\": 2.5}}", "runtime.tickMillis", "must be an integer");
    }

    @Test
    void thePoolIsSizedFromTheSlotsUnlessSet() {
        assertThat(parse("{\"database\": {" + POSTGRES + "}, \"runtime\": {\"maxConcurrentControlCalls\": 8}}")
                .database().poolSize()).isEqualTo(8 + 4);
        assertThat(parse("{\"database\": {" + POSTGRES + "}}").database().poolSize())
                .as("the default 32 slots, capped: three workers stay under max_connections 100").isEqualTo(20);
        assertThat(parse("{\"database\": {" + POSTGRES + "}, \"runtime\": {\"maxConcurrentControlCalls\": 256}}")
                .database().poolSize()).as("capped at the largest default pool").isEqualTo(20);
        assertThat(parse("{\"database\": {" + POSTGRES + ", \"poolSize\": 150}}").database().poolSize())
                .isEqualTo(150);
        assertThat(parse("{\"database\": {" + POSTGRES + ", \"poolSize\": 3}}").database().poolSize()).isEqualTo(3);
        assertThat(DatabaseConfig.defaults().poolSize()).isEqualTo(20);
    }

    @Test
    void aPoolSizeOutOfRangeOrForSqliteIsRefusedNamingTheKey() {
        for (String value : new String[] {"0", "201"}) {
            assertError("{\"database\": {" + POSTGRES + ", \"poolSize\": " + value + "}}", "database.poolSize",
                    "database.poolSize must be between 1 and 200, was " + value);
        }
        assertError("{\"database\": {" + POSTGRES + ", \"poolSize\": \"8\"}}", "database.poolSize",
                "must be an integer");
        assertError("{\"database\": {\"url\": \"jdbc:sqlite:x.db\", \"poolSize\": 8}}", "database.poolSize",
                "database.poolSize applies to PostgreSQL only");
    }

    @Test
    void synchronousIsFullUnlessNormalIsChosen() {
        assertThat(parse("{}").database().synchronous()).isEqualTo(DatabaseConfig.Synchronous.FULL);
        assertThat(parse("{\"database\": {\"synchronous\": \"FULL\"}}").database().synchronous())
                .isEqualTo(DatabaseConfig.Synchronous.FULL);
        assertThat(parse("{\"database\": {\"synchronous\": \"NORMAL\"}}").database().synchronous())
                .isEqualTo(DatabaseConfig.Synchronous.NORMAL);
    }

    @Test
    void aBadSynchronousValueOrOneForPostgresIsRefusedNamingTheKey() {
        assertError("{\"database\": {\"synchronous\": \"OFF\"}}", "database.synchronous",
                "database.synchronous must be FULL or NORMAL, was 'OFF'");
        assertError("{\"database\": {\"synchronous\": \"normal\"}}", "database.synchronous",
                "must be FULL or NORMAL, was 'normal'");
        assertError("{\"database\": {\"synchronous\": true}}", "database.synchronous", "must be a string");
        assertError("{\"database\": {" + POSTGRES + ", \"synchronous\": \"NORMAL\"}}", "database.synchronous",
                "database.synchronous applies to SQLite only");
    }

    @Test
    void theNewSettingsShowInThePrintedConfiguration() {
        AppConfig config = parse("{\"database\": {" + POSTGRES + ", \"password\": \"pw\", \"poolSize\": 9},"
                + " \"runtime\": {\"tickMillis\": 50}}");

        assertThat(config.toString()).contains("poolSize=9", "synchronous=FULL", "tickMillis=50")
                .doesNotContain("pw,");
    }

    private void assertError(String json, String key, String message) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(message)
                .hasMessageStartingWith("test.json: ")
                .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(1))
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
