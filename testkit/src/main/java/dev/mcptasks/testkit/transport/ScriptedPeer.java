package dev.mcptasks.testkit.transport;

import java.util.List;
import java.util.Map;

/**
 * The script both transports' test peers follow, as pure logic: every JSON-RPC request is echoed back
 * ({@code {"result":{"echo":<params>}}}) except a few methods that provoke the situations a transport must survive.
 * Notifications and client responses get no reply. The stdio peer and the HTTP test server each interpret the
 * actions in their own framing.
 */
public final class ScriptedPeer {

    /** Sends a notification, then the echo. */
    public static final String NOTIFY_FIRST = "notifyFirst";
    /** Answers with a result padded to {@code params.bytes} bytes. */
    public static final String BIG = "big";
    /** Ends the peer (stdio: exit code {@code params.code}, default 3) without answering. */
    public static final String EXIT = "exit";
    /** Forgets the session after answering (HTTP answers 404 afterwards). */
    public static final String DROP_SESSION = "dropSession";
    /** Emits broken framing (stdio: a non-JSON line before the echo; HTTP: a non-JSON event, then a cut stream). */
    public static final String MALFORMED = "malformed";
    /** Never answers. */
    public static final String HANG = "hang";
    /** HTTP: answers with status {@code params.status} (default 500). */
    public static final String FAIL = "fail";

    /** What the peer does in answer to one inbound message. */
    public sealed interface Action {
        /** Sends one JSON-RPC message. */
        record Emit(String json) implements Action {}

        /** Emits something that is not a JSON-RPC message. */
        record EmitMalformed(String text) implements Action {}

        /** Ends the peer process with this exit code. */
        record Exit(int code) implements Action {}

        /** Forgets the session. */
        record DropSession() implements Action {}

        /** Keeps the exchange open without answering. */
        record Hang() implements Action {}

        /** Answers with an HTTP error status. */
        record Fail(int status) implements Action {}
    }

    /** The actions for one inbound message, in order. */
    public List<Action> handle(String message) {
        Map<String, String> members = JsonMembers.of(message);
        String method = JsonMembers.unquote(members.get("method"));
        String id = members.get("id");
        if (method == null || id == null) {
            return List.of();
        }
        String params = members.getOrDefault("params", "null");
        Map<String, String> args = params.startsWith("{") ? JsonMembers.of(params) : Map.of();
        return switch (method) {
            case NOTIFY_FIRST -> List.of(new Action.Emit(notification(id)), new Action.Emit(echo(id, params)));
            case BIG -> List.of(new Action.Emit(big(id, Integer.parseInt(args.getOrDefault("bytes", "1048576")))));
            case EXIT -> List.of(new Action.Exit(Integer.parseInt(args.getOrDefault("code", "3"))));
            case DROP_SESSION -> List.of(new Action.Emit(echo(id, params)), new Action.DropSession());
            case MALFORMED -> List.of(new Action.EmitMalformed("this is not json"), new Action.Emit(echo(id, params)));
            case HANG -> List.of(new Action.Hang());
            case FAIL -> List.of(new Action.Fail(Integer.parseInt(args.getOrDefault("status", "500"))));
            default -> List.of(new Action.Emit(echo(id, params)));
        };
    }

    /** The echo response for a request. */
    public static String echo(String rawId, String rawParams) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + rawId + ",\"result\":{\"echo\":" + rawParams + "}}";
    }

    /** The notification {@code notifyFirst} sends before its response. */
    public static String notification(String rawId) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"before\":" + rawId + "}}";
    }

    private static String big(String rawId, int bytes) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + rawId + ",\"result\":{\"pad\":\"" + "x".repeat(bytes) + "\"}}";
    }
}
