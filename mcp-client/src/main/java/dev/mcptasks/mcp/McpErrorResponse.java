package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/** The server answered a request with a JSON-RPC error object. */
public final class McpErrorResponse extends McpException {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** 2026-07-28: the request's protocol version is not one the server speaks. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private final String method;
    private final int code;
    private final String remoteMessage;
    private final JsonNode data;

    public McpErrorResponse(String serverName, String method, int code, String remoteMessage, JsonNode data) {
        super(serverName, "server '" + serverName + "' answered " + method + " with error " + code + ": "
                + remoteMessage + supportedVersions(code, data), null);
        this.method = method;
        this.code = code;
        this.remoteMessage = remoteMessage;
        this.data = data;
    }

    /**
     * An unsupported-version error (-32022, 2026-07-28) names the versions the server speaks in its data; the user
     * needs them to pick the server's {@code protocol} setting.
     */
    private static String supportedVersions(int code, JsonNode data) {
        if (code != UNSUPPORTED_PROTOCOL_VERSION || data == null || !data.path("supported").isArray()) {
            return "";
        }
        return " (the server supports " + data.path("supported") + ")";
    }

    public String method() {
        return method;
    }

    public int code() {
        return code;
    }

    /** The error's {@code message} as the server wrote it. */
    public String remoteMessage() {
        return remoteMessage;
    }

    /** The error's {@code data}, or null. */
    public JsonNode data() {
        return data;
    }

    @Override
    public boolean retryable() {
        return code == INTERNAL_ERROR;
    }
}
