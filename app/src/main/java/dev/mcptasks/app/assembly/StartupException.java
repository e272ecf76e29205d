package dev.mcptasks.app.assembly;

/**
 * The process could not be assembled for a reason other than the store (a server no transport can reach, a component
 * that failed to start). Its message is the innermost cause, one line, instead of Guice's report of every binding.
 */
public final class StartupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StartupException(String message, Throwable cause) {
        super(String.valueOf(message).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip(), cause);
    }
}
