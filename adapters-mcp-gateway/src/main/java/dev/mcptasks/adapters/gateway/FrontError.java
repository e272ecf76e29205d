package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC error to answer with: the code, a one-line message naming the cause, optional data. Thrown from a
 * handler (or completing its future exceptionally); the router turns it into the error response.
 */
final class FrontError extends RuntimeException {
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL = -32603;
    /** 2026-07-28: the request lacks a client capability the server needs. */
    static final int MISSING_CAPABILITY = -32021;
    /** 2026-07-28: the envelope names a protocol version the server does not speak. */
    static final int UNSUPPORTED_VERSION = -32022;

    private final int code;
    private final transient JsonNode data;

    FrontError(int code, String message, JsonNode data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    FrontError(int code, String message) {
        this(code, message, null);
    }

    int code() {
        return code;
    }

    JsonNode data() {
        return data;
    }

    static FrontError invalidParams(String message) {
        return new FrontError(INVALID_PARAMS, message);
    }

    static FrontError methodNotFound(String method) {
        return new FrontError(METHOD_NOT_FOUND, "Method not found: " + method);
    }

    /** Unknown and foreign tasks look the same, so an id tells a caller nothing about tasks that are not theirs. */
    static FrontError taskNotFound() {
        return new FrontError(INVALID_PARAMS, "Task not found");
    }
}
