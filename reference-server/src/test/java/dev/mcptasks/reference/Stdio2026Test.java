package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The 2026-07-28 scenarios over stdio. */
class Stdio2026Test extends Scenarios2026 {
  private StdioTestClient client;

  @Override
  void connect(ReferenceServerOptions options) throws Exception {
    server = new ReferenceServer(options);
    client = new StdioTestClient(server);
  }

  @Override
  void disconnect() throws Exception {
    client.close();
  }

  @Override
  JsonNode send(String method, ObjectNode params) {
    return client.request(method, params);
  }

  @Override
  void expectHttpStatus(int status) {
    // stdio has no status
  }
}
