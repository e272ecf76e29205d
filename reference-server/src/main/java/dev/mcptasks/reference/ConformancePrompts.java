package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The conformance suite's fixture prompts ({@code test_simple_prompt}, {@code test_prompt_with_arguments},
 * {@code test_prompt_with_embedded_resource}, {@code test_prompt_with_image}) and {@code completion/complete}
 * (values for {@code test_prompt_with_arguments}'s arguments that start with what was typed).
 */
final class ConformancePrompts {
  private ConformancePrompts() {}

  static JsonNode list() {
    return FixtureJson.object("{'prompts':["
        + "{'name':'test_simple_prompt','description':'A simple prompt without arguments'},"
        + "{'name':'test_prompt_with_arguments','description':'A prompt with two arguments','arguments':["
        + "{'name':'arg1','description':'First test argument','required':true},"
        + "{'name':'arg2','description':'Second test argument','required':true}]},"
        + "{'name':'test_prompt_with_embedded_resource','description':'A prompt embedding a resource',"
        + "'arguments':[{'name':'resourceUri','description':'URI of the resource to embed','required':true}]},"
        + "{'name':'test_prompt_with_image','description':'A prompt with an image'}]}");
  }

  static JsonNode get(JsonNode params) {
    String name = JsonRpc.requiredText(params, "name");
    JsonNode arguments = params.path("arguments");
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    ArrayNode messages = result.putArray("messages");
    switch (name) {
      case "test_simple_prompt" -> messages.add(text("This is a simple prompt for testing."));
      case "test_prompt_with_arguments" -> messages.add(text("Prompt with arguments: arg1='"
          + arguments.path("arg1").asText("") + "', arg2='" + arguments.path("arg2").asText("") + "'"));
      case "test_prompt_with_embedded_resource" -> {
        ObjectNode message = messages.addObject().put("role", "user");
        ObjectNode content = message.putObject("content").put("type", "resource");
        content.putObject("resource").put("uri", arguments.path("resourceUri").asText("test://example-resource"))
            .put("mimeType", "text/plain").put("text", "Embedded resource content for testing.");
        messages.add(text("Please process the embedded resource above."));
      }
      case "test_prompt_with_image" -> {
        messages.add(FixtureJson.object("{'role':'user','content':{'type':'image','data':'$PNG',"
            + "'mimeType':'image/png'}}"));
        messages.add(text("Please analyze the image above."));
      }
      default -> throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Prompt " + name + " not found");
    }
    return result;
  }

  static JsonNode complete(JsonNode params) {
    String typed = params.path("argument").path("value").asText("");
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    ObjectNode completion = result.putObject("completion");
    ArrayNode values = completion.putArray("values");
    for (String value : new String[] {"paris", "park", "party", "test", "testValue1", "testValue2"}) {
      if (value.startsWith(typed)) {
        values.add(value);
      }
    }
    completion.put("total", values.size()).put("hasMore", false);
    return result;
  }

  private static ObjectNode text(String text) {
    ObjectNode message = JsonNodeFactory.instance.objectNode().put("role", "user");
    message.putObject("content").put("type", "text").put("text", text);
    return message;
  }
}
