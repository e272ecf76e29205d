package dev.mcptasks.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.domain.DurationText;
import dev.mcptasks.domain.ProtocolGeneration;
import dev.mcptasks.ports.transport.McpTransportException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the answer to the {@code server/discover} probe a session sends first when no generation is pinned (the
 * dual-era rules of the 2026-07-28 revision): a {@code DiscoverResult} means the 2026-07-28 generation; a recognised
 * 2026 error means a 2026-07-28 server that refused this request (a version it does not take is retried once with a
 * version it lists; no fallback); anything else (method not found, "Server not initialized", an HTTP 4xx, silence)
 * means a server of the 2025-11-25 generation, which is then initialized. The fallback never hangs on one error code.
 */
final class GenerationProbe {
    static final String METHOD = "server/discover";
    static final int HEADER_MISMATCH = -32020;
    static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    static final int UNSUPPORTED_PROTOCOL_VERSION = McpErrorResponse.UNSUPPORTED_PROTOCOL_VERSION;

    /** What the probe decided. */
    sealed interface Verdict {
        /** A 2026-07-28 server. */
        record Speaks2026(McpHandshake handshake) implements Verdict {}

        /** A 2025-11-25 (or older) server: initialize it; {@code why} is for the log. */
        record Speaks2025(String why) implements Verdict {}

        /** A 2026-07-28 server that does not take the version asked; ask again with this one (once). */
        record Retry(String version) implements Verdict {}

        /** No verdict: the handshake fails with this cause (the next request probes again). */
        record Failed(Throwable cause) implements Verdict {}
    }

    private GenerationProbe() {}

    /**
     * @param requested the version the probe asked for
     * @param mayRetry whether a refused version may still be retried
     */
    static Verdict classify(String serverName, String requested, boolean mayRetry, JsonNode result, Throwable error) {
        if (error == null) {
            // a peer that answers any method (an echo) is no 2026 server: a DiscoverResult lists its versions
            if (result == null || !result.isObject() || !result.path("supportedVersions").isArray()) {
                return new Verdict.Speaks2025("server/discover was answered with something other than a DiscoverResult");
            }
            return new Verdict.Speaks2026(McpHandshake.discovered(serverName, result));
        }
        Throwable cause = RemoteOperation.unwrap(error);
        if (cause instanceof McpErrorResponse response) {
            return switch (response.code()) {
                case UNSUPPORTED_PROTOCOL_VERSION -> unsupportedVersion(serverName, requested, mayRetry, response);
                case HEADER_MISMATCH -> new Verdict.Failed(new McpProtocolException(serverName, "server '"
                        + serverName + "' speaks 2026-07-28 but refused the server/discover probe: the request"
                        + " headers and body disagree (-32020): " + response.remoteMessage()));
                case MISSING_REQUIRED_CLIENT_CAPABILITY -> new Verdict.Failed(new McpProtocolException(serverName,
                        "server '" + serverName + "' speaks 2026-07-28 but refused the server/discover probe for a"
                                + " missing client capability (-32021): " + response.remoteMessage()
                                + (response.data() == null ? "" : " " + response.data())));
                default -> new Verdict.Speaks2025("server/discover was answered with error " + response.code() + " ("
                        + response.remoteMessage() + ")");
            };
        }
        if (cause instanceof McpTimeoutException) {
            return new Verdict.Speaks2025("server/discover got no answer within "
                    + DurationText.of(((McpTimeoutException) cause).timeout()));
        }
        if (cause instanceof McpProtocolException) {
            return new Verdict.Speaks2025("server/discover was answered with a malformed message");
        }
        if (cause instanceof McpTransportFailure failure) {
            McpTransportException transport = failure.transportCause();
            boolean clientError = transport.kind() == McpTransportException.Kind.HTTP_STATUS
                    && transport.httpStatus() >= 400 && transport.httpStatus() < 500;
            // a 2025-11-25 stdio server may exit on a request before initialize: that is its answer too
            if (clientError || transport.kind() == McpTransportException.Kind.SESSION_LOST
                    || transport.kind() == McpTransportException.Kind.PROCESS_EXITED) {
                return new Verdict.Speaks2025("server/discover was answered with " + transport.getMessage());
            }
        }
        return new Verdict.Failed(cause);
    }

    private static Verdict unsupportedVersion(String serverName, String requested, boolean mayRetry,
            McpErrorResponse response) {
        List<String> supported = new ArrayList<>();
        JsonNode listed = response.data() == null ? null : response.data().get("supported");
        if (listed != null && listed.isArray()) {
            listed.forEach(version -> supported.add(version.asText()));
        }
        if (supported.contains(ProtocolGeneration.VERSION_2026) && mayRetry) {
            return new Verdict.Retry(ProtocolGeneration.VERSION_2026);
        }
        if (supported.stream().anyMatch(ProtocolVersions::isSupported)) {
            // a 2026-07-28 endpoint that names a 2025 version it still serves: initialize is that retry
            return new Verdict.Speaks2025("server/discover: the server lists " + supported + " (-32022)");
        }
        return new Verdict.Failed(new McpProtocolException(serverName, "server '" + serverName
                + "' does not speak a protocol version this client speaks: it supports " + supported
                + ", was asked for " + requested + "; this client speaks " + ProtocolGeneration.VERSION_2026
                + " and " + ProtocolVersions.SUPPORTED + " (-32022: " + response.remoteMessage() + ")"));
    }
}
