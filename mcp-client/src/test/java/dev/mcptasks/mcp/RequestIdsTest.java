package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.McpSessionTest.CALLBACKS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.testkit.ManualClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two session objects of one process speaking in one upstream session (a worker that resumed its creator's session)
 * never send the same request id: ids are unique in the process, and the prefix separates processes. Before, every
 * session counted from 1, and a server routing answers by id handed one task's answer to another.
 */
class RequestIdsTest {
    @Test
    void twoSessionsOfOneProcessNeverSendTheSameIdOrProgressToken() throws Exception {
        FakeServer server = new FakeServer();
        server.on("echo", request -> FakeServer.json("{}"));
        ManualClock clock = new ManualClock();
        McpServerSettings settings = new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(30), true);
        try (McpSession creator = new McpSession(settings, server, clock, CALLBACKS, "test");
                McpSession resumer = new McpSession(settings, server, clock, CALLBACKS, "test")) {
            List<CompletableFuture<?>> calls = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                calls.add(creator.request("echo", null));
                calls.add(resumer.request("echo", null));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        }
        List<String> ids = server.transports.stream().flatMap(transport -> transport.sent.stream())
                .filter(message -> message.has("id")).map(message -> message.get("id").asText()).toList();

        assertThat(ids).hasSizeGreaterThanOrEqualTo(100).doesNotHaveDuplicates()
                .allMatch(id -> id.startsWith(RequestIds.prefix() + "-"));
        assertThat(RequestIds.nextProgressToken()).isNotEqualTo(RequestIds.nextProgressToken());
    }

    @Test
    void processesDrawDifferentPrefixes() {
        SecureRandom random = new SecureRandom();
        List<String> prefixes = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            prefixes.add(RequestIds.randomPrefix(random));
        }
        assertThat(prefixes).doesNotHaveDuplicates().allMatch(prefix -> prefix.matches("[0-9a-z]{16}"));
    }
}
