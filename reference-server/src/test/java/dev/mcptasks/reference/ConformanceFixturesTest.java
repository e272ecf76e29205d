package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --conformance-fixtures} over stdio: the suite's tools, resources, prompts, completion and log level, and
 * their capabilities; without the option none of them is served.
 */
class ConformanceFixturesTest {
  private ReferenceServer server;
  private StdioTestClient client;

  private JsonNode start(boolean fixtures) throws Exception {
    server = new ReferenceServer(ReferenceServerOptions.defaults().withConformanceFixtures(fixtures));
    client = new StdioTestClient(server);
    return client.initialize();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void withoutTheOptionNothingOfTheSuiteIsServed() throws Exception {
    JsonNode capabilities = start(false).path("capabilities");
    assertThat(capabilities.has("resources") || capabilities.has("prompts") || capabilities.has("logging")).isFalse();
    assertThat(client.result("tools/list", null).path("tools").findValuesAsText("name"))
        .noneMatch(name -> name.startsWith("test_"));
    assertThat(client.request("resources/list", Json.obj()).path("error").path("code").asInt()).isEqualTo(-32601);
  }

  @Test
  void theFixturesAreServedAsTheSuiteDescribesThem() throws Exception {
    JsonNode capabilities = start(true).path("capabilities");
    assertThat(capabilities.path("resources").path("subscribe").asBoolean()).isTrue();
    assertThat(capabilities.has("prompts") && capabilities.has("completions") && capabilities.has("logging"))
        .isTrue();
    assertThat(client.result("tools/list", null).path("tools").findValuesAsText("name"))
        .contains("test_simple_text", "json_schema_2020_12_tool", "work");

    assertThat(client.result("tools/call", Json.call("test_error_handling", Json.obj(), null))
        .path("isError").asBoolean()).isTrue();
    assertThat(client.result("tools/call", Json.call("test_multiple_content_types", Json.obj(), null))
        .path("content").findValuesAsText("type")).containsExactly("text", "image", "resource");
    assertThat(client.result("resources/read", Json.obj("uri", "test://template/7/data")).path("contents").path(0)
        .path("text").asText()).isEqualTo("{\"id\":\"7\",\"templateTest\":true,\"data\":\"Data for ID: 7\"}");
    JsonNode missing = client.request("resources/read", Json.obj("uri", "test://none")).path("error");
    assertThat(missing.path("code").asInt()).isEqualTo(-32002);
    assertThat(client.result("prompts/get", Json.obj("name", "test_prompt_with_arguments", "arguments",
        Json.obj("arg1", "a", "arg2", "b"))).path("messages").path(0).path("content").path("text").asText())
        .isEqualTo("Prompt with arguments: arg1='a', arg2='b'");
    assertThat(client.result("completion/complete", Json.obj("ref", Json.obj("type", "ref/prompt", "name",
        "test_prompt_with_arguments"), "argument", Json.obj("name", "arg1", "value", "par"))).path("completion")
        .path("values").size()).isEqualTo(3);
  }

  @Test
  void logMessagesFollowTheSessionsLevel() throws Exception {
    start(true);
    CompletableFuture<JsonNode> log = client.whenReceived(m -> "notifications/message".equals(m.path("method")
        .asText()));
    client.result("logging/setLevel", Json.obj("level", "error"));
    client.result("tools/call", Json.call("test_tool_with_logging", Json.obj(), null));
    assertThat(log).isNotDone();
    client.result("logging/setLevel", Json.obj("level", "debug"));
    client.result("tools/call", Json.call("test_tool_with_logging", Json.obj(), null));
    assertThat(StdioTestClient.await(log).path("params").path("data").asText()).isEqualTo("Tool execution started");
  }
}
