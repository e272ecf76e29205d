package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The JSON-RPC 2.0 shapes both transports need: what kind of message arrived, and the errors they answer with. */
final class JsonRpc {
    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** Implementation-defined transport errors (bad session, forbidden, too large), as the SDKs use it. */
    static final int TRANSPORT_ERROR = -32000;
    static final int SESSION_NOT_FOUND = -32001;
    /** SEP-2243: request headers and body disagree (HTTP 400). */
    static final int HEADER_MISMATCH = -32020;
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private static final Logger LOG = LoggerFactory.getLogger(JsonRpc.class);

    /** What a parsed body is. */
    enum Kind { REQUEST, NOTIFICATION, RESPONSE, INVALID }

    private JsonRpc() {}

    static Kind kind(JsonNode message) {
        if (message == null || !message.isObject() || !"2.0".equals(message.path("jsonrpc").asText(null))) {
            return Kind.INVALID;
        }
        JsonNode method = message.get("method");
        JsonNode id = message.get("id");
        boolean validId = id != null && (id.isTextual() || id.isIntegralNumber());
        if (method != null) {
            if (!method.isTextual()) {
                return Kind.INVALID;
            }
            if (id == null) {
                return Kind.NOTIFICATION;
            }
            return validId ? Kind.REQUEST : Kind.INVALID;
        }
        boolean answered = message.has("result") || message.has("error");
        return answered && id != null ? Kind.RESPONSE : Kind.INVALID;
    }

    /** The id to echo in an error about {@code message}: its id when readable, else null. */
    static JsonNode idOf(JsonNode message) {
        JsonNode id = message == null ? null : message.get("id");
        return id != null && (id.isTextual() || id.isIntegralNumber()) ? id : NullNode.getInstance();
    }

    static ObjectNode error(JsonNode id, int code, String message) {
        return error(id, code, message, null);
    }

    static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        response.put("jsonrpc", "2.0");
        response.set("id", id == null ? NullNode.getInstance() : id);
        ObjectNode error = response.putObject("error");
        error.put("code", code);
        error.put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        return response;
    }

    /**
     * The response to send for {@code request} given what the dispatcher's future ended with: its answer, or a
     * one-line -32603 when it failed or gave none (a dispatcher bug, logged; never a stack trace on the wire).
     */
    static ObjectNode responseTo(JsonNode request, Optional<ObjectNode> answer, Throwable failure) {
        JsonNode id = idOf(request);
        String method = request.path("method").asText();
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (!(cause instanceof CancellationException)) {
                LOG.warn("the dispatcher failed on {} ({})", method, cause.toString());
            }
            return error(id, INTERNAL_ERROR, "Internal error: " + firstLine(cause));
        }
        if (answer == null || answer.isEmpty()) {
            LOG.warn("the dispatcher gave no answer to the request {}", method);
            return error(id, INTERNAL_ERROR, "Internal error: no answer to " + method);
        }
        return answer.get();
    }

    private static String firstLine(Throwable cause) {
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** The error code of a response, or 0 for a result. */
    static int errorCode(ObjectNode response) {
        JsonNode code = response.path("error").path("code");
        return code.isInt() ? code.intValue() : 0;
    }
}
