package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * What a {@code work} task or a {@code submit_job} job does, read from the tool arguments: how long it runs, how it
 * ends, and how the server treats control calls (get/status and cancel) about it.
 *
 * <p>The 2026-07-28 arguments ({@code failAs}, {@code errorCode}, {@code askInput}, {@code approveFirst},
 * {@code cancelIgnored}) only change tasks created through the 2026 path; 2025 tasks ignore them.
 * {@code failAs} is {@code "error"} (the default: status {@code failed} with a JSON-RPC {@code error} of
 * {@code errorCode}, -32603 unless given) or {@code "isError"} (status {@code completed}, result
 * {@code isError: true}). {@code askInput} (a message) holds the task in {@code input_required} until a
 * {@code tasks/update} answers it; {@code approveFirst} ({@code true} or a message) answers the first
 * {@code tools/call} with an MRTR {@code input_required} round before any task exists; {@code cancelIgnored} acks
 * {@code tasks/cancel} but lets the task finish (the lost race).
 */
record TaskBehaviour(
    long durationMs,
    String result,
    boolean fail,
    String failMessage,
    long inputRequiredMs,
    long resultBytes,
    Malformed malformed,
    long statusDelayMs,
    boolean statusHang,
    long cancelDelayMs,
    boolean cancelHang,
    long createDelayMs,
    boolean failAsError,
    int errorCode,
    String askInput,
    String approveFirst,
    boolean cancelIgnored) {

  static final String DEFAULT_APPROVE_MESSAGE = "Run the tool?";

  /** How a {@code tasks/get} answer is broken on purpose. */
  enum Malformed {
    NONE,
    /** {@code status: "bogus"}. */
    BOGUS_STATUS,
    /** The {@code taskId} field is missing. */
    MISSING_TASK_ID,
    /** The result is a JSON string instead of an object. */
    NOT_OBJECT
  }

  static final long MAX_RESULT_BYTES = 64L * 1024 * 1024;

  /** Reads the behaviour from tool arguments; bad values raise -32602 naming the argument. */
  static TaskBehaviour from(JsonNode arguments, long defaultDurationMs) {
    JsonNode args = arguments == null || arguments.isNull() ? MissingNode.getInstance() : arguments;
    if (!args.isMissingNode() && !args.isObject()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "arguments must be an object");
    }
    long resultBytes = nonNegative(args, "resultBytes", 0);
    if (resultBytes > MAX_RESULT_BYTES) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "resultBytes must be at most " + MAX_RESULT_BYTES + " but was " + resultBytes);
    }
    return new TaskBehaviour(
        nonNegative(args, "durationMs", defaultDurationMs),
        text(args, "result", "done"),
        bool(args, "fail"),
        text(args, "failMessage", "work failed"),
        nonNegative(args, "inputRequiredMs", 0),
        resultBytes,
        malformed(args.path("malformed")),
        nonNegative(args, "statusDelayMs", 0),
        bool(args, "statusHang"),
        nonNegative(args, "cancelDelayMs", 0),
        bool(args, "cancelHang"),
        nonNegative(args, "createDelayMs", 0),
        failAsError(args.path("failAs")),
        errorCode(args.path("errorCode")),
        optionalText(args, "askInput"),
        approveFirst(args.path("approveFirst")),
        bool(args, "cancelIgnored"));
  }

  /** Whether the task, on the 2026 path, asks for input: {@code askInput} or the 2025 {@code inputRequiredMs}. */
  boolean asksInput() {
    return askInput != null || inputRequiredMs > 0;
  }

  private static boolean failAsError(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return true;
    }
    return switch (node.asText()) {
      case "error" -> true;
      case "isError" -> false;
      default -> throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "failAs must be \"error\" or \"isError\" but was " + node);
    };
  }

  private static int errorCode(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return JsonRpcException.INTERNAL_ERROR;
    }
    if (!node.isInt()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, "errorCode must be an integer but was " + node);
    }
    return node.intValue();
  }

  private static String approveFirst(JsonNode node) {
    if (node.isMissingNode() || node.isNull() || (node.isBoolean() && !node.booleanValue())) {
      return null;
    }
    if (node.isBoolean()) {
      return DEFAULT_APPROVE_MESSAGE;
    }
    if (!node.isTextual()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "approveFirst must be a boolean or a string but was " + node);
    }
    return node.textValue();
  }

  private static String optionalText(JsonNode args, String name) {
    return args.path(name).isMissingNode() || args.path(name).isNull() ? null : text(args, name, null);
  }

  private static Malformed malformed(JsonNode node) {
    if (node.isMissingNode() || node.isNull() || (node.isBoolean() && !node.booleanValue())) {
      return Malformed.NONE;
    }
    if (node.isBoolean()) {
      return Malformed.BOGUS_STATUS;
    }
    return switch (node.asText()) {
      case "bogusStatus" -> Malformed.BOGUS_STATUS;
      case "missingTaskId" -> Malformed.MISSING_TASK_ID;
      case "notObject" -> Malformed.NOT_OBJECT;
      default -> throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          "malformed must be true or one of bogusStatus, missingTaskId, notObject but was " + node);
    };
  }

  private static long nonNegative(JsonNode args, String name, long fallback) {
    JsonNode node = args.path(name);
    if (node.isMissingNode() || node.isNull()) {
      return fallback;
    }
    if (!node.canConvertToLong() || !node.isIntegralNumber() || node.longValue() < 0) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS,
          name + " must be a non-negative integer but was " + node);
    }
    return node.longValue();
  }

  private static boolean bool(JsonNode args, String name) {
    JsonNode node = args.path(name);
    if (node.isMissingNode() || node.isNull()) {
      return false;
    }
    if (!node.isBoolean()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, name + " must be a boolean but was " + node);
    }
    return node.booleanValue();
  }

  private static String text(JsonNode args, String name, String fallback) {
    JsonNode node = args.path(name);
    if (node.isMissingNode() || node.isNull()) {
      return fallback;
    }
    if (!node.isTextual()) {
      throw new JsonRpcException(JsonRpcException.INVALID_PARAMS, name + " must be a string but was " + node);
    }
    return node.textValue();
  }
}
