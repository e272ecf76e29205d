package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A request failure that is answered with a JSON-RPC error object carrying {@link #code()} (and {@link #data()} when
 * set). Over HTTP the error travels with {@link #httpStatus()}: 200 for the 2025 errors and the 2026 task errors,
 * 4xx for the 2026 protocol errors the SDK answers at the transport level.
 */
final class JsonRpcException extends RuntimeException {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  /** 2026-07-28: the HTTP headers and the body disagree. */
  static final int HEADER_MISMATCH = -32020;
  /** 2026-07-28: the request did not declare a capability the server needs. */
  static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
  /** 2026-07-28: the request's protocol version is not served. */
  static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private final int code;
  private final transient JsonNode data;
  private final int httpStatus;

  JsonRpcException(int code, String message) {
    this(code, message, null, 200);
  }

  JsonRpcException(int code, String message, JsonNode data, int httpStatus) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
    this.httpStatus = httpStatus;
  }

  int code() {
    return code;
  }

  /** The error's {@code data} member; null when it has none. */
  JsonNode data() {
    return data;
  }

  int httpStatus() {
    return httpStatus;
  }
}
