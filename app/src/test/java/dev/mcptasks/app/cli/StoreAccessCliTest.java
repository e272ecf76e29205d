package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line against real stores with the production wiring: reading beside another process's write lock, and
 * a store that cannot be opened (one line naming the store and the cause, exit code 5, no secret).
 */
class StoreAccessCliTest {
    private static final String PASSWORD = "pg-s3cret";

    @TempDir
    Path dir;

    private StringWriter out;
    private StringWriter err;

    @Test
    void readOnlyCommandsWorkWhileAnotherProcessHoldsTheWriteLock() throws Exception {
        Path file = dir.resolve("tasks.db");
        writeConfig(database("jdbc:sqlite:" + file), true);
        assertThat(run("submit", "ref", "work")).as(err.toString()).isZero();
        String id = out.toString().strip();

        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement lock = other.createStatement()) {
            lock.execute("BEGIN IMMEDIATE");
            assertThat(run("list")).as(err.toString()).isZero();
            assertThat(out.toString()).contains(id, "pending");
            assertThat(run("show", id)).as(err.toString()).isZero();
            assertThat(out.toString()).contains(id);
            assertThat(run("result", id)).as(err.toString()).isEqualTo(ExitCodes.NOT_TERMINAL);
            assertThat(run("workers")).as(err.toString()).isZero();
            // a write waits out the busy timeout (5 s), then says so in one line
            assertThat(run("submit", "ref", "work")).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
            assertThat(err.toString()).startsWith("mcp-tasks: store error: ").contains("busy");
            assertThat(err.toString().lines()).hasSize(1);
            lock.execute("ROLLBACK");
        }
    }

    @Test
    void anSqliteStoreThatCannotBeOpenedIsOneLineWithExitFive() throws Exception {
        Path notAFile = Files.createDirectory(dir.resolve("a-directory"));
        writeConfig(database("jdbc:sqlite:" + notAFile), false);

        for (String command : new String[] {"list", "serve"}) {
            assertThat(run(command)).as(command + ": " + err).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
            assertThat(err.toString()).as(command).startsWith("mcp-tasks: cannot open the store jdbc:sqlite:"
                    + notAFile + ": ").endsWith("\n").doesNotContain("Guice", "CreationException");
            assertThat(err.toString().lines()).as(command).hasSize(1);
        }
    }

    @Test
    void theNotificationsCommandsOnAStoreThatCannotBeOpenedAreOneLineWithExitFive() throws Exception {
        Path notAFile = Files.createDirectory(dir.resolve("a-directory"));
        writeConfig(database("jdbc:sqlite:" + notAFile), false);

        for (String[] command : new String[][] {{"notifications", "list"}, {"notifications", "replay", "--all"},
                {"notifications", "replay", "task-1"}}) {
            String name = String.join(" ", command);
            assertThat(run(command)).as(name + ": " + err).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
            assertThat(err.toString()).as(name).startsWith("mcp-tasks: cannot open the store jdbc:sqlite:"
                    + notAFile + ": ").doesNotContain("Guice", "CreationException");
            assertThat(err.toString().lines()).as(name).hasSize(1);
        }
    }

    @Test
    void aRefusedPostgresConnectionIsOneLineWithoutThePassword() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/tasks";
        ObjectNode database = database(url + "?password=" + PASSWORD + "&ApplicationName=x");
        database.put("user", "mcp").put("password", "${env:PGPASSWORD}");
        writeConfig(database, false);

        assertThat(run("list")).as(err.toString()).isEqualTo(ExitCodes.STORE_UNAVAILABLE);
        assertThat(err.toString()).startsWith("mcp-tasks: cannot open the store " + url + ": ")
                .contains("refused").doesNotContain(PASSWORD);
        assertThat(err.toString().lines()).hasSize(1);
    }

    private static ObjectNode database(String url) {
        return TaskJson.MAPPER.createObjectNode().put("url", url);
    }

    private void writeConfig(ObjectNode database, boolean withServer) throws IOException {
        ObjectNode config = TaskJson.MAPPER.createObjectNode();
        config.set("database", database);
        ObjectNode servers = config.putObject("mcpServers");
        if (withServer) {
            servers.putObject("ref").put("command", "never-started");
        }
        Files.writeString(dir.resolve("mcp-tasks.json"), TaskJson.write(config));
    }

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        CliContext context = new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(Map.of("PGPASSWORD", PASSWORD)::get, dir), AppRoot.production(), Sleeper.REAL,
                hook -> {});
        return Cli.run(context, args);
    }
}
