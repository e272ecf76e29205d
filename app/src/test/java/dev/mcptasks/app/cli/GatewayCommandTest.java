package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.config.ConfigLoader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gateway command's start-up on the production assembly (SQLite in a temporary directory). */
class GatewayCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void aPortInUseIsOneLineNamingTheAddressExitTwoBeforeAnyWorkerRegisters() throws Exception {
        Files.writeString(dir.resolve("mcp-tasks.json"), "{\"database\": {\"url\": \"jdbc:sqlite:"
                + dir.resolve("tasks.db") + "\"}, \"mcpServers\": {\"local\": {\"command\": \"node\"}}}");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();

            int exit = run("gateway", "--port", String.valueOf(port));

            assertThat(exit).as(err.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(err.toString()).hasLineCount(1)
                    .startsWith("mcp-tasks: gateway: cannot listen on 127.0.0.1:" + port + ": ")
                    .contains("Address already in use");
        }
        assertThat(run("workers", "--all", "--json")).isZero();
        assertThat(out.toString().strip()).as("no worker started").isEqualTo("[]");
    }

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CliContext context = new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(Map.<String, String>of()::get, dir), AppRoot.production(), Sleeper.REAL, hook -> {});
        return Cli.run(context, args);
    }
}
