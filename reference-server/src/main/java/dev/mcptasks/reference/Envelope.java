package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The 2026-07-28 per-request envelope in {@code params._meta}: the protocol version, the client's capabilities (with
 * the extensions it opts into for this request only) and optionally its name. Also the protocol errors about it.
 */
record Envelope(String protocolVersion, JsonNode clientCapabilities, JsonNode clientInfo) {
  static final String VERSION = "2026-07-28";
  static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
  static final String CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
  static final String CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
  static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
  static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

  /** Whether {@code params} carries an envelope at all (its version key), the mark of a 2026 request in dual mode. */
  static boolean present(JsonNode params) {
    return params.path("_meta").has(PROTOCOL_VERSION_KEY);
  }

  /**
   * Reads the envelope of a 2026 request: a missing key is -32602 (HTTP 400) naming it, a version other than
   * 2026-07-28 is -32022 (HTTP 400) with {@code data{supported, requested}}.
   */
  static Envelope read(JsonNode params) {
    JsonNode meta = params.path("_meta");
    List<String> missing = new ArrayList<>();
    if (!meta.isObject()) {
      missing.add("_meta");
    } else {
      if (!meta.path(PROTOCOL_VERSION_KEY).isTextual()) {
        missing.add("_meta[\"" + PROTOCOL_VERSION_KEY + "\"]");
      }
      if (!meta.path(CLIENT_CAPABILITIES_KEY).isObject()) {
        missing.add("_meta[\"" + CLIENT_CAPABILITIES_KEY + "\"]");
      }
    }
    if (!missing.isEmpty()) {
      ObjectNode data = JsonNodeFactory.instance.objectNode();
      ArrayNode list = data.putObject("envelope").putArray("missing");
      missing.forEach(list::add);
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "Invalid params: protocol revision " + VERSION
          + " requires the per-request envelope, but the request is missing the required key(s): "
          + String.join(", ", missing), data, 400);
    }
    String version = meta.get(PROTOCOL_VERSION_KEY).textValue();
    if (!VERSION.equals(version)) {
      throw unsupportedVersion(version);
    }
    return new Envelope(version, meta.get(CLIENT_CAPABILITIES_KEY), meta.path(CLIENT_INFO_KEY));
  }

  /** -32022 naming the one version served on the 2026 path (also the answer to {@code initialize} in pure 2026). */
  static JsonRpcException unsupportedVersion(String requested) {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.putArray("supported").add(VERSION);
    data.put("requested", requested);
    return new JsonRpcException(JsonRpcException.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: " + requested, data, 400);
  }

  /** Whether this request opted into the tasks extension. */
  boolean declaresTasks() {
    return clientCapabilities.path("extensions").path(TASKS_EXTENSION).isObject();
  }

  /** -32021 unless this request declared the tasks extension. */
  void requireTasks() {
    if (!declaresTasks()) {
      throw missingTasksCapability();
    }
  }

  static JsonRpcException missingTasksCapability() {
    ObjectNode data = JsonNodeFactory.instance.objectNode();
    data.putObject("requiredCapabilities").putObject("extensions").putObject(TASKS_EXTENSION);
    return new JsonRpcException(JsonRpcException.MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability", data, 400);
  }
}
