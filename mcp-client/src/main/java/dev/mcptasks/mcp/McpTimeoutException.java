package dev.mcptasks.mcp;

import dev.mcptasks.domain.DurationText;
import java.time.Duration;

/** No answer arrived within the server's request timeout; the server was told with {@code notifications/cancelled}. */
public final class McpTimeoutException extends McpException {
    private final String method;
    private final Duration timeout;

    public McpTimeoutException(String serverName, String method, Duration timeout) {
        super(serverName, "server '" + serverName + "' did not answer " + method + " within " + DurationText.of(timeout), null);
        this.method = method;
        this.timeout = timeout;
    }

    public String method() {
        return method;
    }

    public Duration timeout() {
        return timeout;
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
