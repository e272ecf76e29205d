package dev.mcptasks.adapters.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.testkit.ManualClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;

/** No connection computes generated keys: nothing reads them, and sqlite-jdbc would scan the SQL after each update. */
class SqliteGeneratedKeysTest {
    @TempDir
    Path dir;

    @Test
    void noConnectionComputesGeneratedKeys() throws Exception {
        try (SqliteDatabase database = SqliteDatabase.open(SqliteFixture.settings(dir.resolve("tasks.db")),
                new ManualClock())) {
            List<Boolean> computed = new ArrayList<>();
            for (DataSource pool : database.pools()) {
                try (Connection connection = pool.getConnection()) {
                    computed.add(generatedKeys(connection));
                }
            }
            try (Connection watcher = database.openReadConnection()) {
                computed.add(generatedKeys(watcher));
            }
            assertThat(computed).as("writer, reader, watcher").containsExactly(false, false, false);
        }
    }

    private static boolean generatedKeys(Connection connection) throws Exception {
        return connection.unwrap(SQLiteConnection.class).getConnectionConfig().isGetGeneratedKeys();
    }
}
