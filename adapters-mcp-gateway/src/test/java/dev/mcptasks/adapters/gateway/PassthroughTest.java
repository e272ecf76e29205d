package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.BOB;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Resources, prompts, completion and the log level, passed through to fake upstream servers {@code alpha} and
 * {@code beta}, on both generations where the method exists in both.
 */
class PassthroughTest {
    private static final String EVERYTHING = "{'resources':{'subscribe':true},'prompts':{},'completions':{},"
            + "'logging':{}}";

    private final FrontHarness front = new FrontHarness();
    private final RecordingSession session = new RecordingSession("s-1");

    private ObjectNode v2025(String method, String params) {
        return front.result(ALICE, session, front.request(method, params));
    }

    private ObjectNode v2026(String method, String params) {
        return front.result(ALICE, null, front.v2026(method, params, false));
    }

    private JsonNode v2025Error(String method, String params) {
        return FrontHarness.errorOf(front.send(ALICE, session, front.request(method, params)));
    }

    private static List<String> names(JsonNode list, String field) {
        return java.util.stream.StreamSupport.stream(list.spliterator(), false)
                .map(item -> item.path(field).asText()).toList();
    }

    @Test
    void initializeAndDiscoverAdvertiseOnlyWhatAnUpstreamOffers() {
        ObjectNode bare = v2025("initialize", "{'protocolVersion':'2025-11-25'}").with("capabilities");
        assertThat(bare.has("resources") || bare.has("prompts") || bare.has("completions") || bare.has("logging"))
                .isFalse();

        front.upstream.offers("alpha", "{'resources':{},'tools':{}}").offers("beta", EVERYTHING);
        ObjectNode v2025 = v2025("initialize", "{'protocolVersion':'2025-11-25'}").with("capabilities");
        assertThat(v2025.path("resources")).isEqualTo(FrontHarness.json("{'subscribe':true}"));
        assertThat(v2025.path("prompts").isObject()).isTrue();
        assertThat(v2025.path("completions").isObject()).isTrue();
        assertThat(v2025.path("logging").isObject()).isTrue();
        assertThat(v2025.path("tools").isObject()).isTrue();

        // 2026-07-28: no session, so no subscriptions and no log level
        ObjectNode v2026 = v2026("server/discover", "{}").with("capabilities");
        assertThat(v2026.path("resources")).isEqualTo(FrontHarness.json("{}"));
        assertThat(v2026.path("prompts").isObject()).isTrue();
        assertThat(v2026.path("completions").isObject()).isTrue();
        assertThat(v2026.has("logging")).isFalse();
    }

    @Test
    void aMethodNoUpstreamOffersIsNotFound() {
        front.upstream.offers("alpha", "{'prompts':{}}");
        assertThat(v2025Error("resources/list", "{}").path("code").asInt()).isEqualTo(FrontError.METHOD_NOT_FOUND);
        assertThat(v2025Error("logging/setLevel", "{'level':'info'}").path("code").asInt())
                .isEqualTo(FrontError.METHOD_NOT_FOUND);
        assertThat(FrontHarness.errorOf(front.send(ALICE, null, front.v2026("logging/setLevel", "{'level':'info'}",
                false))).path("code").asInt()).isEqualTo(FrontError.METHOD_NOT_FOUND);
        assertThat(front.upstream.sent).isEmpty();
    }

    @Test
    void promptsAreNamespacedAndPagedServerByServer() {
        front.upstream.offers("alpha", EVERYTHING).offers("beta", "{'prompts':{}}")
                .answers("alpha", "prompts/list", params -> params.has("cursor")
                        ? "{'prompts':[{'name':'second','description':'d'}]}"
                        : "{'prompts':[{'name':'first','description':'d'}],'nextCursor':'a2'}")
                .answers("beta", "prompts/list", "{'prompts':[{'name':'first','description':'d'}]}")
                .answers("beta", "prompts/get", params -> "{'messages':[{'role':'user','content':{'type':'text',"
                        + "'text':'" + params.path("name").asText() + " " + params.path("arguments").path("x")
                        .asText() + "'}}]}");

        ObjectNode page1 = v2025("prompts/list", "{}");
        assertThat(names(page1.get("prompts"), "name")).containsExactly("alpha__first");
        ObjectNode page2 = v2025("prompts/list", "{'cursor':'" + page1.path("nextCursor").asText() + "'}");
        assertThat(names(page2.get("prompts"), "name")).containsExactly("alpha__second");
        assertThat(front.upstream.sentTo("alpha", "prompts/list").get(1).params().path("cursor").asText())
                .isEqualTo("a2");
        ObjectNode page3 = v2025("prompts/list", "{'cursor':'" + page2.path("nextCursor").asText() + "'}");
        assertThat(names(page3.get("prompts"), "name")).containsExactly("beta__first");
        assertThat(page3.has("nextCursor")).isFalse();

        ObjectNode got = v2025("prompts/get", "{'name':'beta__first','arguments':{'x':'y'}}");
        assertThat(got.path("messages").path(0).path("content").path("text").asText()).isEqualTo("first y");
        assertThat(v2025Error("prompts/get", "{'name':'gamma__first'}").path("message").asText())
                .isEqualTo("Unknown prompt: gamma__first");
        assertThat(v2025Error("prompts/list", "{'cursor':'not a cursor'}").path("code").asInt())
                .isEqualTo(FrontError.INVALID_PARAMS);
    }

    @Test
    void resourceUrisAreServedUnchangedAndRoutedToTheServerThatListedThem() {
        front.upstream.offers("alpha", EVERYTHING).offers("beta", "{'resources':{}}")
                .answers("alpha", "resources/list", "{'resources':[{'uri':'file:///a','name':'a'}]}")
                .answers("beta", "resources/list", "{'resources':[{'uri':'file:///b','name':'b'}]}")
                .answers("alpha", "resources/read", "{'contents':[{'uri':'file:///a','text':'from alpha'}]}")
                .answers("beta", "resources/read", "{'contents':[{'uri':'file:///b','text':'from beta'}]}");
        ObjectNode first = v2025("resources/list", "{}");
        assertThat(names(first.get("resources"), "uri")).containsExactly("file:///a");
        ObjectNode second = v2025("resources/list", "{'cursor':'" + first.path("nextCursor").asText() + "'}");
        assertThat(names(second.get("resources"), "uri")).containsExactly("file:///b");

        assertThat(v2025("resources/read", "{'uri':'file:///b'}").path("contents").path(0).path("text").asText())
                .isEqualTo("from beta");
        assertThat(front.upstream.sentTo("alpha", "resources/read")).isEmpty();
        assertThat(v2025("resources/read", "{'uri':'file:///a'}").path("contents").path(0).path("text").asText())
                .isEqualTo("from alpha");
    }

    @Test
    void aUriNoListingNamedIsAskedOfEachServerInTurnAndTheFirstErrorPassesThrough() {
        front.upstream.offers("alpha", EVERYTHING).offers("beta", "{'resources':{}}")
                .fails("alpha", "resources/read", -32002, "Resource not found", "{'uri':'x://1'}")
                .answers("beta", "resources/read", "{'contents':[{'uri':'x://1','text':'beta has it'}]}");
        assertThat(v2025("resources/read", "{'uri':'x://1'}").path("contents").path(0).path("text").asText())
                .isEqualTo("beta has it");

        front.upstream.fails("beta", "resources/read", -32603, "beta broke", null);
        JsonNode error = v2025Error("resources/read", "{'uri':'x://1'}");
        assertThat(error.path("code").asInt()).isEqualTo(-32002);
        assertThat(error.path("message").asText()).isEqualTo("Resource not found");
        assertThat(error.path("data")).isEqualTo(FrontHarness.json("{'uri':'x://1'}"));
    }

    @Test
    void templatesRouteTheUrisTheyMatch() {
        front.upstream.offers("alpha", EVERYTHING).offers("beta", "{'resources':{},'completions':{}}")
                .answers("alpha", "resources/templates/list", "{'resourceTemplates':[]}")
                .answers("beta", "resources/templates/list",
                        "{'resourceTemplates':[{'uriTemplate':'db://{table}/rows','name':'rows'}]}")
                .answers("beta", "resources/read", "{'contents':[{'uri':'db://users/rows','text':'rows'}]}")
                .answers("beta", "completion/complete", "{'completion':{'values':['users']}}");
        String cursor = v2025("resources/templates/list", "{}").path("nextCursor").asText();
        assertThat(names(v2025("resources/templates/list", "{'cursor':'" + cursor + "'}").get("resourceTemplates"),
                "uriTemplate")).containsExactly("db://{table}/rows");

        assertThat(v2025("resources/read", "{'uri':'db://users/rows'}").path("contents").path(0).path("text")
                .asText()).isEqualTo("rows");
        assertThat(v2025("completion/complete", "{'ref':{'type':'ref/resource','uri':'db://{table}/rows'},"
                + "'argument':{'name':'table','value':'u'}}").path("completion").path("values").path(0).asText())
                .isEqualTo("users");
        assertThat(front.upstream.sentTo("alpha", "resources/read")).isEmpty();
        assertThat(front.upstream.sentTo("alpha", "completion/complete")).isEmpty();
    }

    @Test
    void completionOfAPromptArgumentGoesToThePromptsServerUnderItsOwnName() {
        front.upstream.offers("alpha", EVERYTHING)
                .answers("alpha", "completion/complete", "{'completion':{'values':['paris'],'hasMore':false}}");
        ObjectNode result = v2025("completion/complete", "{'ref':{'type':'ref/prompt','name':'alpha__trip'},"
                + "'argument':{'name':'city','value':'pa'}}");
        assertThat(result.path("completion").path("values").path(0).asText()).isEqualTo("paris");
        assertThat(front.upstream.sentTo("alpha", "completion/complete").get(0).params().path("ref"))
                .isEqualTo(FrontHarness.json("{'type':'ref/prompt','name':'trip'}"));
    }

    @Test
    void setLevelGoesToEveryServerOfferingLogging() {
        front.upstream.offers("alpha", EVERYTHING).offers("beta", "{'logging':{}}")
                .answers("alpha", "logging/setLevel", "{}").answers("beta", "logging/setLevel", "{}");
        assertThat(v2025("logging/setLevel", "{'level':'debug'}")).isEqualTo(FrontHarness.json("{}"));
        assertThat(front.upstream.sentTo("alpha", "logging/setLevel")).hasSize(1);
        assertThat(front.upstream.sentTo("beta", "logging/setLevel").get(0).params().path("level").asText())
                .isEqualTo("debug");

        front.upstream.fails("beta", "logging/setLevel", -32602, "Invalid log level", null);
        JsonNode error = v2025Error("logging/setLevel", "{'level':'debug'}");
        assertThat(error.path("code").asInt()).isEqualTo(-32602);
        assertThat(error.path("message").asText()).isEqualTo("Invalid log level");
    }

    @Test
    void anUnreachableUpstreamIsAnInternalErrorNamingIt() {
        front.upstream.offers("alpha", EVERYTHING);
        JsonNode error = v2025Error("prompts/get", "{'name':'alpha__p'}");
        assertThat(error.path("code").asInt()).isEqualTo(FrontError.INTERNAL);
        assertThat(error.path("message").asText()).contains("upstream server 'alpha'").contains("connection refused");
    }

    @Test
    void oneUpstreamSubscriptionServesEverySubscribedSessionAndUpdatesGoOnlyToThem() {
        front.upstream.offers("alpha", EVERYTHING).answers("alpha", "resources/subscribe", "{}")
                .answers("alpha", "resources/unsubscribe", "{}");
        RecordingSession other = new RecordingSession("s-2");
        RecordingSession bystander = new RecordingSession("s-3");
        assertThat(v2025("resources/subscribe", "{'uri':'file:///w'}")).isEqualTo(FrontHarness.json("{}"));
        assertThat(front.result(BOB, other, front.request("resources/subscribe", "{'uri':'file:///w'}")))
                .isEqualTo(FrontHarness.json("{}"));
        front.result(BOB, bystander, front.request("ping", "{}"));
        assertThat(front.upstream.sentTo("alpha", "resources/subscribe")).hasSize(1);

        front.upstream.notifies("alpha", Subscriptions.UPDATED, "{'uri':'file:///w'}");
        front.upstream.notifies("alpha", Subscriptions.UPDATED, "{'uri':'file:///other'}");
        front.upstream.notifies("beta", Subscriptions.UPDATED, "{'uri':'file:///w'}");
        assertThat(session.notifications).hasSize(1);
        assertThat(session.notifications.get(0)).isEqualTo(FrontHarness.json("{'jsonrpc':'2.0',"
                + "'method':'notifications/resources/updated','params':{'uri':'file:///w'}}"));
        assertThat(other.notifications).hasSize(1);
        assertThat(bystander.notifications).isEmpty();

        v2025("resources/unsubscribe", "{'uri':'file:///w'}");
        assertThat(front.upstream.sentTo("alpha", "resources/unsubscribe")).isEmpty();
        front.upstream.notifies("alpha", Subscriptions.UPDATED, "{'uri':'file:///w'}");
        assertThat(session.notifications).hasSize(1);
        assertThat(other.notifications).hasSize(2);

        front.dispatcher.sessionClosed(other);
        assertThat(front.upstream.sentTo("alpha", "resources/unsubscribe")).hasSize(1);
    }

    @Test
    void the2026GenerationPassesResourcesAndPromptsWithoutItsEnvelope() {
        front.upstream.offers("alpha", EVERYTHING)
                .answers("alpha", "resources/read", "{'contents':[{'uri':'file:///a','text':'t'}],"
                        + "'resultType':'complete','_meta':{'io.modelcontextprotocol/serverInfo':{'name':'up'}}}")
                .answers("alpha", "prompts/list", "{'prompts':[{'name':'p'}]}");
        ObjectNode read = v2026("resources/read", "{'uri':'file:///a'}");
        assertThat(read.path("contents").path(0).path("text").asText()).isEqualTo("t");
        assertThat(read.path("resultType").asText()).isEqualTo("complete");
        assertThat(read.path("_meta").path(Envelope2026.SERVER_INFO).path("name").asText())
                .isEqualTo("mcp-tasks-test");
        ObjectNode sent = front.upstream.sentTo("alpha", "resources/read").get(0).params();
        assertThat(sent).isEqualTo(FrontHarness.json("{'uri':'file:///a'}"));

        ObjectNode prompts = v2026("prompts/list", "{}");
        assertThat(names(prompts.get("prompts"), "name")).containsExactly("alpha__p");
        assertThat(prompts.path("ttlMs").asInt()).isZero();

        // a 2025 client sees no 2026 fields, whatever the upstream's generation
        ObjectNode v2025Read = v2025("resources/read", "{'uri':'file:///a'}");
        assertThat(v2025Read.has("resultType")).isFalse();
        assertThat(v2025Read.has("_meta")).isFalse();
    }

    @Test
    void serveUnprefixedServesTheOneServersPromptsUnderTheirOwnNames() {
        FrontHarness plain = FrontHarness.tuned(settings -> new FrontSettings(
                List.of(FrontSettings.ExposedServer.allTools("alpha")), settings.storePollInterval(),
                settings.catalogTtl(), settings.serverName(), settings.serverVersion(),
                settings.clientPollIntervalMs(), settings.quotas(), true, null));
        plain.upstream.offers("alpha", EVERYTHING)
                .answers("alpha", "prompts/list", "{'prompts':[{'name':'test_simple_prompt'}]}")
                .answers("alpha", "prompts/get", params -> "{'messages':[],'description':'" + params.path("name")
                        .asText() + "'}");
        assertThat(names(plain.result(ALICE, session, plain.request("prompts/list", "{}")).get("prompts"), "name"))
                .containsExactly("test_simple_prompt");
        assertThat(plain.result(ALICE, session, plain.request("prompts/get", "{'name':'test_simple_prompt'}"))
                .path("description").asText()).isEqualTo("test_simple_prompt");
        assertThat(plain.result(ALICE, session, plain.request("tools/list", "{}")).path("tools").path(0)
                .path("name").asText()).isEqualTo("long_job");
    }
}
