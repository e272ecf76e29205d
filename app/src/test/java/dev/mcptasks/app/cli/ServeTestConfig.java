package dev.mcptasks.app.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.reference.ReferenceServerMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The configuration the in-process {@code serve} tests share: a SQLite file and the reference server over stdio. */
final class ServeTestConfig {
    private ServeTestConfig() {}

    /**
     * Writes {@code dir/mcp-tasks.json}: the store at {@code database}, a 10 s lease with 1 s polls and a 2 s drain,
     * and server {@code ref} = the reference server started from this JVM's class path over stdio.
     */
    static void write(Path dir, Path database) throws IOException {
        ObjectNode config = TaskJson.MAPPER.createObjectNode();
        config.putObject("database").put("url", "jdbc:sqlite:" + database);
        config.putObject("runtime").put("leaseSeconds", 10).put("pollIntervalSeconds", 1).put("drainSeconds", 2);
        ObjectNode ref = config.putObject("mcpServers").putObject("ref");
        ref.put("command", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ref.putArray("args").add("-cp").add(System.getProperty("java.class.path"))
                .add(ReferenceServerMain.class.getName()).add("--stdio").add("--poll-interval-ms").add("200");
        Files.writeString(dir.resolve("mcp-tasks.json"), TaskJson.write(config));
    }
}
