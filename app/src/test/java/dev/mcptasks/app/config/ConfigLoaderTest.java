package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.ports.transport.McpServerSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>(Map.of("TOKEN", "s3cret-token", "API_TOKEN", "api-s3cret"));

    private ConfigLoader loader() {
        return new ConfigLoader(env::get, dir);
    }

    private AppConfig parse(String json) {
        return loader().parse("test.json", json);
    }

    @Test
    void withoutAnyFileTheDefaultsApply() {
        AppConfig config = loader().load(null);

        assertThat(config.source()).isEqualTo("defaults");
        assertThat(config.database()).isEqualTo(new DatabaseConfig("jdbc:sqlite:mcp-tasks.db", null, null));
        assertThat(config.runtime()).isEqualTo(new RuntimeConfig(120, 5, 32, 300, 60, 3, 8L * 1024 * 1024, 5, 30, 30));
        assertThat(config.servers()).isEmpty();
    }

    @Test
    void emptySectionsTakeEveryDefault() {
        AppConfig config = parse("{\"database\": {}, \"runtime\": {}, \"mcpServers\": {\"s\": {\"command\": \"x\"}}}");

        assertThat(config.database()).isEqualTo(DatabaseConfig.defaults());
        assertThat(config.runtime()).isEqualTo(RuntimeConfig.defaults());
        ServerConfig server = config.servers().get("s");
        assertThat(server).isEqualTo(new ServerConfig("s", "x", List.of(), Map.of(), null, null, Map.of(),
                "mcp-tasks", null, 60, SubmitPolicy.AT_MOST_ONCE, null, true, 0, null));
    }

    @Test
    void everyKeyIsMapped() {
        AppConfig config = parse("""
                { "database": { "url": "jdbc:postgresql://db/tasks", "user": "mcp", "password": "${env:TOKEN}",
                                "poolSize": 24 },
                  "runtime": { "leaseSeconds": 30, "pollIntervalSeconds": 2, "maxConcurrentControlCalls": 16,
                               "maxBackoffSeconds": 600, "inputRequiredPollSeconds": 90, "degradedAfterErrors": 5,
                               "maxResultBytes": 1048576, "drainSeconds": 10, "workerStaleAfterSeconds": 40,
                               "notificationTimeoutSeconds": 20, "tickMillis": 250 },
                  "mcpServers": {
                    "local": { "type": "stdio", "command": "node", "args": ["server.js", "stdio"],
                               "env": { "TOKEN": "${env:TOKEN}", "PLAIN": "a-${env:API_TOKEN}-b" }, "cwd": "srv",
                               "sessionBound": true, "protocol": "2025-11-25" },
                    "remote": { "url": "http://127.0.0.1:3001/mcp",
                                "headers": { "Authorization": "Bearer ${env:API_TOKEN}" },
                                "driver": "mcp-tasks", "toolCallTimeoutSeconds": 90, "submitPolicy": "atLeastOnce",
                                "taskTtlMs": 600000, "sessionBound": false, "maxConnections": 4,
                                "protocol": "2026-07-28" },
                    "tools": { "url": "https://tools.example/mcp", "driver": "ordinary-tools",
                               "toolset": { "submit": "start_job", "status": "job_status", "cancel": "stop_job" },
                               "protocol": "auto" }
                  } }
                """);

        assertThat(config.database()).isEqualTo(new DatabaseConfig("jdbc:postgresql://db/tasks", "mcp", "s3cret-token",
                24, DatabaseConfig.Synchronous.FULL));
        assertThat(config.database().kind()).isEqualTo(DatabaseConfig.Kind.POSTGRES);
        assertThat(config.runtime()).isEqualTo(new RuntimeConfig(30, 2, 16, 600, 90, 5, 1048576, 10, 40, 20, 250));
        assertThat(config.servers()).containsOnlyKeys("local", "remote", "tools");
        assertThat(config.servers().keySet()).containsExactly("local", "remote", "tools");
        assertThat(config.servers().get("local")).isEqualTo(new ServerConfig("local", "node",
                List.of("server.js", "stdio"), Map.of("TOKEN", "s3cret-token", "PLAIN", "a-api-s3cret-b"),
                dir.resolve("srv"), null, Map.of(), "mcp-tasks", null, 60, SubmitPolicy.AT_MOST_ONCE, null, true, 0,
                ProtocolGeneration.TASKS_2025_11_25));
        assertThat(config.servers().get("remote")).isEqualTo(new ServerConfig("remote", null, List.of(), Map.of(),
                null, URI.create("http://127.0.0.1:3001/mcp"), Map.of("Authorization", "Bearer api-s3cret"),
                "mcp-tasks", null, 90, SubmitPolicy.AT_LEAST_ONCE, 600_000L, false, 4,
                ProtocolGeneration.TASKS_EXTENSION_2026_07_28));
        assertThat(config.servers().get("tools").pinnedGeneration()).as("auto pins nothing").isNull();
        assertThat(config.servers().get("remote").toMcpSettings().pinnedGeneration())
                .isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(config.servers().get("tools").toMcpSettings().pinnedGeneration()).isNull();
        assertThat(config.servers().get("tools").toolset())
                .isEqualTo(new Toolset("start_job", "job_status", "stop_job"));
        assertThat(config.servers().get("tools").driver()).isEqualTo("ordinary-tools");
    }

    @Test
    void serversMapToTransportSpecs() {
        AppConfig config = parse("""
                { "mcpServers": {
                    "local": { "command": "node", "args": ["s.js"], "env": { "TOKEN": "${env:TOKEN}" } },
                    "remote": { "url": "http://127.0.0.1:3001/mcp", "headers": { "X": "y" },
                                "toolCallTimeoutSeconds": 900, "directCallTimeoutSeconds": 600 } } }
                """);

        McpServerSpec local = config.servers().get("local").toSpec();
        assertThat(local.isStdio()).isTrue();
        assertThat(local.command()).isEqualTo("node");
        assertThat(local.args()).containsExactly("s.js");
        assertThat(local.env()).containsEntry("TOKEN", "s3cret-token");
        McpServerSpec remote = config.servers().get("remote").toSpec();
        assertThat(remote.url()).isEqualTo(URI.create("http://127.0.0.1:3001/mcp"));
        assertThat(remote.headers()).containsEntry("X", "y");
        // silent reads last as long as the longer of a tool call and a direct call may take
        assertThat(remote.readTimeout()).hasSeconds(900);
    }

    @Test
    void secretsNeverAppearInToString() {
        AppConfig config = parse("""
                { "database": { "url": "jdbc:postgresql://db/tasks", "user": "mcp", "password": "${env:TOKEN}",
                                "poolSize": 24 },
                  "mcpServers": {
                    "local": { "command": "node", "env": { "TOKEN": "${env:TOKEN}" } },
                    "remote": { "url": "http://h/mcp", "headers": { "Authorization": "Bearer ${env:API_TOKEN}" } } } }
                """);

        assertThat(config.toString()).doesNotContain("s3cret").contains("TOKEN", "Authorization", "password=***");
        assertThat(config.servers().get("local").toSpec().toString()).doesNotContain("s3cret");
    }

    @Test
    void theFileIsFoundExplicitlyThenByEnvironmentThenInTheWorkingDirectory() throws IOException {
        Files.writeString(dir.resolve("mcp-tasks.json"), "{\"runtime\": {\"leaseSeconds\": 10}}");
        Files.writeString(dir.resolve("env.json"), "{\"runtime\": {\"leaseSeconds\": 20}}");
        Files.writeString(dir.resolve("explicit.json"), "{\"runtime\": {\"leaseSeconds\": 30}}");

        assertThat(loader().load(null).runtime().leaseSeconds()).isEqualTo(10);
        env.put("MCP_TASKS_CONFIG", "env.json");
        assertThat(loader().load(null).runtime().leaseSeconds()).isEqualTo(20);
        assertThat(loader().load(Path.of("explicit.json")).runtime().leaseSeconds()).isEqualTo(30);
        assertThat(loader().load(Path.of("explicit.json")).source()).endsWith("explicit.json");
    }

    @Test
    void aMissingExplicitFileIsAnError() {
        assertThatThrownBy(() -> loader().load(Path.of("nope.json")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("nope.json").hasMessageContaining("does not exist");
    }

    @Test
    void unknownKeysAreNamedWithTheirPath() {
        assertError("{\"databse\": {}}", "databse", "unknown key 'databse'");
        assertError("{\"runtime\": {\"leaseSecs\": 5}}", "runtime.leaseSecs", "unknown key 'runtime.leaseSecs'");
        assertError("{\"database\": {\"uri\": \"x\"}}", "database.uri", "unknown key 'database.uri'");
        assertError("{\"mcpServers\": {\"remote\": {\"url\": \"http://h/mcp\", \"hedaers\": {}}}}",
                "mcpServers.remote.hedaers", "unknown key 'mcpServers.remote.hedaers'");
        assertError("""
                {"mcpServers": {"t": {"url": "http://h/mcp", "driver": "ordinary-tools",
                  "toolset": {"submit": "a", "status": "b", "cancel": "c", "result": "d"}}}}""",
                "mcpServers.t.toolset.result", "unknown key");
    }

    @Test
    void valuesOutOfRangeAreNamed() {
        assertError("{\"runtime\": {\"leaseSeconds\": 4}}", "runtime.leaseSeconds", "between 5 and 3600, was 4");
        assertError("{\"runtime\": {\"leaseSeconds\": 3601}}", "runtime.leaseSeconds", "between 5 and 3600");
        assertError("{\"runtime\": {\"pollIntervalSeconds\": 0}}", "runtime.pollIntervalSeconds", "between 1 and 300");
        assertError("{\"runtime\": {\"maxConcurrentControlCalls\": 257}}", "runtime.maxConcurrentControlCalls",
                "between 1 and 256");
        assertError("{\"runtime\": {\"degradedAfterErrors\": 0}}", "runtime.degradedAfterErrors", "between");
        assertError("{\"runtime\": {\"maxResultBytes\": 10}}", "runtime.maxResultBytes", "between");
        assertError("{\"runtime\": {\"drainSeconds\": -1}}", "runtime.drainSeconds", "between");
        assertError("{\"runtime\": {\"inputRequiredPollSeconds\": 0}}", "runtime.inputRequiredPollSeconds", "between");
        assertError("{\"runtime\": {\"pollIntervalSeconds\": 60, \"maxBackoffSeconds\": 30}}",
                "runtime.maxBackoffSeconds", "must not be less than pollIntervalSeconds");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"toolCallTimeoutSeconds\": 0}}}",
                "mcpServers.s.toolCallTimeoutSeconds", "between 1 and 3600");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"taskTtlMs\": 0}}}", "mcpServers.s.taskTtlMs",
                "between 1 and");
    }

    @Test
    void wrongTypesAreNamedWithoutEchoingTheValue() {
        assertError("{\"runtime\": {\"leaseSeconds\": \"120\"}}", "runtime.leaseSeconds", "must be an integer, was a string");
        assertError("{\"runtime\": {\"leaseSeconds\": 12.5}}", "runtime.leaseSeconds", "was a decimal number");
        assertError("{\"runtime\": []}", "runtime", "must be an object");
        assertError("{\"mcpServers\": {\"s\": \"node x\"}}", "mcpServers.s", "must be an object");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"args\": [\"a\", 1]}}}", "mcpServers.s.args[1]",
                "must be a string");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\": 1}}}}", "mcpServers.s.env.K",
                "must be a string");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"sessionBound\": \"yes\"}}}",
                "mcpServers.s.sessionBound", "true or false");
        assertError("[1]", "", "must be a JSON object");
    }

    @Test
    void aServerNeedsExactlyOneTransport() {
        assertError("{\"mcpServers\": {\"s\": {\"args\": [\"x\"]}}}", "mcpServers.s", "has neither");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"url\": \"http://h/mcp\"}}}", "mcpServers.s",
                "has both");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"headers\": {}}}}", "mcpServers.s.headers",
                "not valid for a server with 'command'");
        assertError("{\"mcpServers\": {\"s\": {\"url\": \"http://h/mcp\", \"env\": {}}}}", "mcpServers.s.env",
                "not valid for a server with 'url'");
        assertError("{\"mcpServers\": {\"s\": {\"url\": \"ftp://h/mcp\"}}}", "mcpServers.s.url", "http:// or https://");
        assertError("{\"mcpServers\": {\"s\": {\"url\": \"http://h/mcp\", \"type\": \"stdio\"}}}", "mcpServers.s.type",
                "must be 'http'");
    }

    @Test
    void anOrdinaryToolsetMayHaveNoCancelTool() {
        AppConfig config = parse("""
                {"mcpServers": {"s": {"command": "x", "driver": "ordinary-tools",
                  "toolset": {"submit": "a", "status": "b"}}}}""");
        assertThat(config.servers().get("s").toolset()).isEqualTo(new Toolset("a", "b", null));
        assertThat(config.servers().get("s").toolset().cancel()).isNull();
    }

    @Test
    void driverSettingsAreChecked() {
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"driver\": \"magic\"}}}", "mcpServers.s.driver",
                "must be mcp-tasks or ordinary-tools");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"driver\": \"ordinary-tools\"}}}",
                "mcpServers.s.toolset", "required with driver ordinary-tools");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"toolset\": {}}}}", "mcpServers.s.toolset",
                "only valid with driver ordinary-tools");
        assertError("""
                {"mcpServers": {"s": {"command": "x", "driver": "ordinary-tools",
                  "toolset": {"submit": "a", "cancel": "c"}}}}""", "mcpServers.s.toolset.status", "is required");
        assertError("""
                {"mcpServers": {"s": {"command": "x", "driver": "ordinary-tools",
                  "toolset": {"submit": "a", "status": "b", "cancel": ""}}}}""", "mcpServers.s.toolset.cancel",
                "must not be empty");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"submitPolicy\": \"exactlyOnce\"}}}",
                "mcpServers.s.submitPolicy", "atMostOnce or atLeastOnce");
    }

    @Test
    void protocolPinsTheGenerationOfNewTasksAndDefaultsToAuto() {
        AppConfig config = parse("""
                {"mcpServers": {"plain": {"command": "x"}, "auto": {"command": "x", "protocol": "auto"},
                  "old": {"command": "x", "protocol": "2025-11-25"},
                  "new": {"url": "http://h/mcp", "protocol": "2026-07-28"}}}""");

        assertThat(config.servers().get("plain").toMcpSettings().pinnedGeneration()).isNull();
        assertThat(config.servers().get("auto").toMcpSettings().pinnedGeneration()).isNull();
        assertThat(config.servers().get("old").toMcpSettings().pinnedGeneration())
                .isEqualTo(ProtocolGeneration.TASKS_2025_11_25);
        assertThat(config.servers().get("new").toMcpSettings().pinnedGeneration())
                .isEqualTo(ProtocolGeneration.TASKS_EXTENSION_2026_07_28);
        assertThat(config.servers().get("new").toString()).contains("protocol=2026-07-28");
        assertThat(config.servers().get("plain").toString()).contains("protocol=auto");
    }

    @Test
    void anInvalidProtocolNamesTheServerAndTheAllowedValues() {
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"protocol\": \"2026-01-01\"}}}",
                "mcpServers.s.protocol", "must be auto, 2025-11-25 or 2026-07-28, was '2026-01-01'");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"protocol\": \"AUTO\"}}}",
                "mcpServers.s.protocol", "must be auto, 2025-11-25 or 2026-07-28, was 'AUTO'");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"protocol\": 2026}}}",
                "mcpServers.s.protocol", "");
    }

    @Test
    void aMissingEnvironmentVariableIsNamed() {
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\": \"${env:NOPE}\"}}}}",
                "mcpServers.s.env.K", "environment variable NOPE, which is not set");
        assertError("{\"mcpServers\": {\"s\": {\"url\": \"http://h/mcp\", \"headers\": {\"A\": \"${env:NOPE}\"}}}}",
                "mcpServers.s.headers.A", "NOPE");
        assertError("{\"database\": {\"url\": \"jdbc:postgresql://h/db\", \"password\": \"${env:NOPE}\"}}",
                "database.password", "NOPE");
        assertError("{\"mcpServers\": {\"s\": {\"command\": \"x\", \"env\": {\"K\": \"${env:1X}\"}}}}",
                "mcpServers.s.env.K", "invalid environment variable name");
    }

    @Test
    void databaseUrlAndJsonSyntaxAreChecked() {
        assertError("{\"database\": {\"url\": \"jdbc:mysql://h/db\"}}", "database.url", "jdbc:sqlite: or jdbc:postgresql:");
        assertError("{\"runtime\": {\"leaseSeconds\": 10, \"leaseSeconds\": 20}}", "", "invalid JSON");
        assertError("{\"runtime\": ", "", "invalid JSON at line 1");
        assertError("{} {}", "", "invalid JSON");
        assertError("", "", "empty");
    }

    @Test
    void jsonSyntaxErrorsSayTheMistakeWithoutTheParsersInternals() {
        assertError("{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}", "",
                "invalid JSON at line 1, column 38: unexpected '}', expected a quoted key");
        assertError("{\"runtime\": ", "", "the text ends before the JSON is complete");
        assertError("{\"runtime\": {\"leaseSeconds\": 10, \"leaseSeconds\": 20}}", "",
                "the key 'leaseSeconds' appears twice in one object");
        assertError("{} {}", "", "more text follows the JSON object");
        assertError("{\"runtime\": {\"leaseSeconds\": ten}}", "", "a bare word where a value belongs");
        for (String text : List.of("{\"a\": {\"b\": 1,}}", "{\"a\": ", "{} {}", "{\"a\": nope}")) {
            assertThatThrownBy(() -> parse(text)).hasMessageNotContainingAny("code ", "[Source", "START_OBJECT",
                    "Jackson", "token");
        }
    }

    @Test
    void aNumberWhereAStringBelongsIsCalledANumber() {
        assertError("{\"mcpServers\": {\"a\": {\"command\": 5}}}", "mcpServers.a.command",
                "must be a string, was a number");
    }

    @Test
    void errorsNameTheSourceFile() {
        assertThatThrownBy(() -> parse("{\"x\": 1}")).hasMessageStartingWith("test.json: unknown key 'x'");
    }

    private void assertError(String json, String key, String messagePart) {
        assertThatThrownBy(() -> parse(json))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(messagePart)
                .hasMessageNotContaining("s3cret")
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo(key));
    }
}
