package dev.mcptasks.ports.catalog;

/** An upstream server could not list its tools; the message names the server and the cause in one line. */
public class UpstreamUnavailableException extends RuntimeException {
    public UpstreamUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public UpstreamUnavailableException(String message) {
        super(message);
    }
}
