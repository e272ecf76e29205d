package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: {@code auth logout} on the production wiring leaves no byte of the sealed credential in the SQLite
 * file (the store overwrites freed space: {@code PRAGMA secure_delete}), so a copy of the file taken after a logout
 * holds no token to open with the key.
 */
class AuthLogoutScrubTest {
    @TempDir
    Path dir;

    private final Map<String, String> environment = Map.of("ROBOT_SECRET", FakeOAuthServer.CLIENT_SECRET,
            "MCP_TASKS_SECRET_KEY", Base64.getEncoder().encodeToString(new byte[32]));
    private FakeOAuthServer server;
    private StringWriter err;

    @BeforeEach
    void setUp() throws IOException {
        server = new FakeOAuthServer();
        Files.writeString(dir.resolve("mcp-tasks.json"), """
                { "database": { "url": "jdbc:sqlite:%s" },
                  "mcpServers": { "remote": { "url": "%s", "transport": "http",
                      "auth": { "grant": "client_credentials", "clientId": "robot",
                                "clientSecret": "${env:ROBOT_SECRET}" } } } }
                """.formatted(dir.resolve("tasks.db"), server.mcpUrl()));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private int run(String... args) {
        err = new StringWriter();
        CliContext context = new CliContext(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
                new ConfigLoader(environment::get, dir), AppRoot.production(environment::get), Sleeper.REAL,
                hook -> { });
        return Cli.run(context, args);
    }

    @Test
    void logoutLeavesNoSealedByteInTheDatabaseFile() throws Exception {
        assertThat(run("auth", "login", "remote")).as(err.toString()).isZero();
        byte[] sealed = sealed();
        assertThat(sealed).hasSizeGreaterThan(64);
        assertThat(occurrences(sealed)).as("the sealed value is in the files while logged in").isPositive();

        assertThat(run("auth", "logout", "remote")).as(err.toString()).isZero();

        // every process closed its connections: the WAL is checkpointed into the database file
        assertThat(occurrences(sealed)).as("files holding a 32-byte piece of the old sealed value").isZero();
    }

    private byte[] sealed() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("tasks.db"));
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT sealed FROM credentials")) {
            assertThat(rows.next()).isTrue();
            return rows.getBytes(1);
        }
    }

    /** How many of the database's files (main, WAL) hold a 32-byte piece of {@code sealed}, from any offset. */
    private long occurrences(byte[] sealed) throws IOException {
        long found = 0;
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("tasks.db")).toList()) {
                byte[] bytes = Files.readAllBytes(file);
                for (int at = 0; at + 32 <= sealed.length; at += 32) {
                    if (indexOf(bytes, Arrays.copyOfRange(sealed, at, at + 32)) >= 0) {
                        found++;
                        break;
                    }
                }
            }
        }
        return found;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
