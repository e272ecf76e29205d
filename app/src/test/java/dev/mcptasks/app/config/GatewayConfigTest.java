package dev.mcptasks.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The {@code gateway} object: listener, principals with tokens from the environment, origins and hosts, limits, the
 * exposed servers; one error naming the key for each mistake, with no token in it.
 */
class GatewayConfigTest {
    private static final String ALICE = "alice-token-0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef00";
    private final ConfigLoader loader = new ConfigLoader(Map.of("ALICE_TOKEN", ALICE, "BOB_TOKEN", BOB,
            "SHORT", "short")::get, Path.of("."));
    private static final String SERVERS = "\"mcpServers\": {"
            + "\"ref\": {\"url\": \"http://127.0.0.1:9/mcp\"}, \"other\": {\"url\": \"http://127.0.0.1:9/mcp\"}}";

    private AppConfig parse(String gateway) {
        return loader.parse("test.json", "{" + SERVERS + (gateway == null ? "" : ", \"gateway\": " + gateway) + "}");
    }

    private static void assertRefused(Runnable parse, String key, String... fragments) {
        assertThatThrownBy(parse::run).isInstanceOf(ConfigException.class)
                .hasMessageContaining(key).hasMessageContaining(fragments[0])
                .satisfies(e -> {
                    for (String fragment : fragments) {
                        assertThat(e.getMessage()).contains(fragment);
                    }
                    assertThat(e.getMessage()).doesNotContain(ALICE).doesNotContain(BOB).doesNotContain("short\"");
                });
    }

    @Test
    void withoutAGatewayObjectEveryServerIsServedOnLoopbackWithoutTokens() {
        GatewayConfig gateway = parse(null).gateway();

        assertThat(gateway.host()).isEqualTo("127.0.0.1");
        assertThat(gateway.port()).isEqualTo(GatewayConfig.DEFAULT_PORT);
        assertThat(gateway.authenticates()).isFalse();
        assertThat(gateway.exposed()).containsOnlyKeys("ref", "other");
        assertThat(gateway.exposed().get("ref")).isEqualTo(GatewayConfig.Exposure.EVERY_TOOL);
        assertThat(gateway.localPrincipal()).isEqualTo("local");
        assertThat(AppConfig.defaults().gateway().exposed()).isEmpty();
    }

    @Test
    void everyKeyIsReadAndTokensComeFromTheEnvironment() {
        GatewayConfig gateway = parse("""
                { "host": "0.0.0.0", "port": 9000,
                  "principals": { "alice": "${env:ALICE_TOKEN}", "bob": "${env:BOB_TOKEN}" },
                  "allowedOrigins": ["https://app.example"], "allowedHosts": ["mcp.internal:9000"],
                  "maxRequestBytes": 65536, "expose": { "ref": { "tools": ["long_job"] } },
                  "localPrincipal": "ops", "requestTimeoutSeconds": 10, "maxConnections": 300,
                  "maxSessionsPerPrincipal": 5,
                  "quotas": { "concurrentTasks": 8, "principals": { "batch": { "callsPerMinute": 60 } } } }
                """).gateway();

        assertThat(gateway.host()).isEqualTo("0.0.0.0");
        assertThat(gateway.port()).isEqualTo(9000);
        assertThat(gateway.tokensByPrincipal()).containsExactly(Map.entry("alice", ALICE), Map.entry("bob", BOB));
        assertThat(gateway.allowedOrigins()).containsExactly("https://app.example");
        assertThat(gateway.allowedHosts()).containsExactly("mcp.internal:9000");
        assertThat(gateway.maxRequestBytes()).isEqualTo(65536);
        assertThat(gateway.exposed()).containsExactly(Map.entry("ref",
                GatewayConfig.Exposure.only(Set.of("long_job"))));
        assertThat(gateway.localPrincipal()).isEqualTo("ops");
        assertThat(gateway.limits()).isEqualTo(new GatewayConfig.Limits(10, 300, 5,
                new GatewayConfig.Quota(8, null), Map.of("batch", new GatewayConfig.Quota(null, 60))));
    }

    @Test
    void anEmptyToolListExposesNoToolAndNoToolListExposesEveryTool() {
        GatewayConfig gateway = parse("""
                { "expose": { "ref": { "tools": [] }, "other": {} } }
                """).gateway();

        assertThat(gateway.exposed().get("ref")).isEqualTo(GatewayConfig.Exposure.only(Set.of()));
        assertThat(gateway.exposed().get("ref").everyTool()).isFalse();
        assertThat(gateway.exposed().get("other")).isEqualTo(GatewayConfig.Exposure.EVERY_TOOL);
    }

    @Test
    void listeningBeyondLoopbackWithoutTokensIsRefused() {
        assertRefused(() -> parse("{\"host\": \"0.0.0.0\"}"), "gateway.principals", "not a loopback address");
        assertThat(parse("{\"host\": \"localhost\"}").gateway().host()).isEqualTo("localhost");
        assertThat(parse("{\"host\": \"::1\"}").gateway().authenticates()).isFalse();
    }

    @Test
    void weakMissingOrSharedTokensAreRefusedWithoutEchoingThem() {
        assertRefused(() -> parse("{\"principals\": {\"alice\": \"${env:SHORT}\"}}"), "gateway.principals.alice",
                "at least 16");
        assertRefused(() -> parse("{\"principals\": {\"alice\": \"${env:NOPE}\"}}"), "gateway.principals.alice",
                "NOPE");
        assertRefused(() -> parse("{\"principals\": {\"alice\": \"${env:ALICE_TOKEN}\","
                + " \"bob\": \"${env:ALICE_TOKEN}\"}}"), "gateway.principals.bob", "same token as principal 'alice'");
        assertRefused(() -> parse("{\"principals\": {\"al ice\": \"${env:ALICE_TOKEN}\"}}"), "gateway.principals",
                "not a principal name");
    }

    @Test
    void unknownKeysServersAndBadValuesAreNamed() {
        assertRefused(() -> parse("{\"prot\": 1}"), "gateway", "prot");
        assertRefused(() -> parse("{\"expose\": {\"nope\": {}}}"), "gateway.expose.nope", "no server 'nope'");
        assertRefused(() -> parse("{\"expose\": {\"ref\": {\"tools\": [1]}}}"), "gateway.expose.ref.tools[0]",
                "must be a string");
        assertRefused(() -> parse("{\"port\": 70000}"), "gateway.port", "70000");
        assertRefused(() -> parse("{\"maxRequestBytes\": 10}"), "gateway.maxRequestBytes", "10");
        assertRefused(() -> parse("{\"maxSessionsPerPrincipal\": 0}"), "gateway.maxSessionsPerPrincipal", "0");
        assertRefused(() -> parse("{\"quotas\": {\"concurrentTasks\": 0}}"), "gateway.quotas.concurrentTasks", "0");
        assertRefused(() -> parse("{\"toolNames\": \"short\"}"), "gateway.toolNames", "\"prefixed\" or \"plain\"");
        assertRefused(() -> parse("{\"toolNames\": \"plain\"}"), "gateway.toolNames", "exactly one exposed server");
        assertThat(parse("{\"toolNames\": \"plain\", \"expose\": {\"ref\": {}}}").gateway().plainToolNames()).isTrue();
        assertRefused(() -> parse("{\"serveUnprefixed\": true}"), "gateway.serveUnprefixed",
                "gateway.serveUnprefixed true needs exactly one exposed server");
        assertRefused(() -> parse("{\"serveUnprefixed\": \"yes\"}"), "gateway.serveUnprefixed", "true or false");
        assertThat(parse("{\"serveUnprefixed\": true, \"expose\": {\"ref\": {}}}").gateway().plainToolNames())
                .isTrue();
        assertThat(parse("{\"serveUnprefixed\": false}").gateway().plainToolNames()).isFalse();
        assertThat(parse("{\"handoffSeconds\": 120}").gateway().handoffSeconds()).isEqualTo(120);
        assertThat(parse(null).gateway().handoffSeconds()).isZero();
        assertRefused(() -> parse("{\"handoffSeconds\": -1}"), "gateway.handoffSeconds", "-1");
        assertRefused(() -> parse("{\"quotas\": {\"principals\": {\"a\": {\"perHour\": 1}}}}"),
                "gateway.quotas.principals.a.perHour", "perHour");
        assertRefused(() -> parse("{\"host\": \" \"}"), "gateway.host", "must not be empty");
    }
}
