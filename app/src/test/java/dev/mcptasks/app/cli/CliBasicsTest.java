package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliBasicsTest {
    @TempDir
    Path dir;

    private CliHarness cli;

    @BeforeEach
    void setUp() {
        cli = new CliHarness(dir);
    }

    @Test
    void helpListsEveryCommand() {
        assertThat(cli.run("--help")).isZero();
        assertThat(cli.out()).contains("serve", "submit", "list", "show", "cancel", "result", "workers",
                "reference-server", "demo", "auth", "--config");
    }

    @Test
    void usageErrorsExitTwoWithOneLine() {
        assertThat(cli.run("frobnicate")).isEqualTo(2);
        assertThat(cli.err().lines()).hasSize(1);
        assertThat(cli.err()).startsWith("mcp-tasks: Unmatched argument");

        assertThat(cli.run("list", "--limit", "many")).isEqualTo(2);
        assertThat(cli.err().lines()).hasSize(1);
        assertThat(cli.err()).contains("--limit").contains("see 'mcp-tasks list --help'");

        assertThat(cli.run("reference-server")).isEqualTo(2);
        assertThat(cli.run("reference-server", "--stdio", "--http", "1")).isEqualTo(2);

        assertThat(cli.run("demo", "--admin-port", "70000")).isEqualTo(2);
        assertThat(cli.err()).isEqualTo("mcp-tasks: --admin-port must be between 0 and 65535, was 70000\n");
    }

    @Test
    void configurationErrorsExitTwoNamingTheKey() {
        cli.writeConfig("{\"mcpServers\": {\"remote\": {\"url\": \"http://h/mcp\", \"hedaers\": {}}}}");
        assertThat(cli.run("list")).isEqualTo(2);
        assertThat(cli.err()).isEqualTo("mcp-tasks: " + dir.resolve("mcp-tasks.json")
                + ": unknown key 'mcpServers.remote.hedaers' (allowed here: args, auth, callMode, callModes, command, cwd,"
                + " directCallTimeoutSeconds, driver, env, headers, maxConnections, protocol, sessionBound,"
                + " submitPolicy, taskTtlMs, toolCallTimeoutSeconds, toolset, transport, type,"
                + " url)\n");

        cli.writeConfig("{\"runtime\": {\"leaseSeconds\": 1}}");
        assertThat(cli.run("submit", "local", "x")).isEqualTo(2);
        assertThat(cli.err()).contains("runtime.leaseSeconds must be between 5 and 3600, was 1");

        cli.writeConfig("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\": \"${env:MISSING}\"}}}}");
        assertThat(cli.run("list")).isEqualTo(2);
        assertThat(cli.err()).contains("mcpServers.s.env.K refers to environment variable MISSING");
    }

    @Test
    void aWorkerThatCannotBeAssembledIsOneLine() {
        // the harness wires the stdio transport only: the HTTP server 'remote' has no transport
        assertThat(cli.run("serve")).isEqualTo(ExitCodes.FAILED);
        assertThat(cli.err()).isEqualTo("mcp-tasks: cannot start: no MCP transport can reach server 'remote'"
                + " (McpServerSpec[name=remote, url=http://127.0.0.1:9/mcp, header names=[Authorization]])\n");
    }

    @Test
    void anExplicitConfigFileWins() {
        cli.writeConfig("{\"mcpServers\": {}}");
        assertThat(cli.run("--config", "other.json", "list")).isEqualTo(2);
        assertThat(cli.err()).contains("other.json does not exist");
        assertThat(cli.run("list", "--config", "other.json")).isEqualTo(2);
    }

    @Test
    void secretsNeverReachTheOutput() {
        cli.run("submit", "local", "x");
        cli.run("show", "task-000001", "--json");
        String all = cli.out() + cli.err();
        cli.run("frobnicate", "--config", "x");
        assertThat(all + cli.out() + cli.err()).doesNotContain("s3cret");
    }
}
