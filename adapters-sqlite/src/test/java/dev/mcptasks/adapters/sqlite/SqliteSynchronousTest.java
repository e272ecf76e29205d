package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.sqlite.SqliteSettings.Synchronous;
import dev.mcptasks.testkit.ManualClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code synchronous} setting reaches every connection: both pools and the work-arrival watcher's. */
class SqliteSynchronousTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"FULL, 2", "NORMAL, 1"})
    void everyConnectionUsesTheConfiguredSynchronousMode(Synchronous mode, int pragmaValue) throws Exception {
        SqliteSettings settings = new SqliteSettings(SqliteSettings.URL_PREFIX + dir.resolve("tasks.db"),
                Duration.ofSeconds(5), 2, mode);
        try (SqliteDatabase database = SqliteDatabase.open(settings, new ManualClock())) {
            List<Integer> values = new ArrayList<>();
            for (DataSource pool : database.pools()) {
                try (Connection connection = pool.getConnection()) {
                    values.add(synchronous(connection));
                }
            }
            try (Connection watcher = database.openReadConnection()) {
                values.add(synchronous(watcher));
            }
            assertThat(values).as("writer, reader, watcher").containsExactly(pragmaValue, pragmaValue, pragmaValue);
        }
    }

    private static int synchronous(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("PRAGMA synchronous")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
