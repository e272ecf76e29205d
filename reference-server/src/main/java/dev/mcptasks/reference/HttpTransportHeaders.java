package dev.mcptasks.reference;

/** Header names of the Streamable HTTP transport. */
final class HttpTransportHeaders {
  static final String SESSION_ID = "Mcp-Session-Id";
  static final String PROTOCOL_VERSION = "MCP-Protocol-Version";

  private HttpTransportHeaders() {
  }
}
