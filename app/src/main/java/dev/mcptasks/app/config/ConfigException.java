package dev.mcptasks.app.config;

/**
 * A configuration that cannot be used: the message names the offending key by its JSON path (for example
 * {@code mcpServers.remote.hedaers}) and the source file, and never contains a secret value.
 */
public final class ConfigException extends RuntimeException {
    private final String key;

    public ConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    public ConfigException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The JSON path of the offending key, or an empty string when the problem is the file as a whole. */
    public String key() {
        return key;
    }

    /** The same problem, prefixed with the file it came from. */
    ConfigException in(String source) {
        return new ConfigException(key, source + ": " + getMessage(), getCause());
    }
}
