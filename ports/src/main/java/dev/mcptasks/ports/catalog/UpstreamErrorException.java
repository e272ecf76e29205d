package dev.mcptasks.ports.catalog;

/**
 * An upstream server answered a request with a JSON-RPC error: its code, message and data as it sent them, so the
 * gateway can pass the error on unchanged.
 */
public class UpstreamErrorException extends RuntimeException {
    private final int code;
    private final String remoteMessage;
    private final String dataJson;

    /**
     * @param dataJson the error's {@code data} as JSON, or null when it had none
     */
    public UpstreamErrorException(String serverName, int code, String remoteMessage, String dataJson) {
        super("server '" + serverName + "' answered error " + code + ": " + remoteMessage, null, false, false);
        this.code = code;
        this.remoteMessage = remoteMessage;
        this.dataJson = dataJson;
    }

    public int code() {
        return code;
    }

    /** The error's {@code message} as the server wrote it. */
    public String remoteMessage() {
        return remoteMessage;
    }

    /** The error's {@code data} as JSON, or null. */
    public String dataJson() {
        return dataJson;
    }
}
