package dev.mcptasks.app.lifecycle;

/** A component failed to start; the components started before it have been stopped again. */
public final class LifecycleException extends RuntimeException {
    private final String component;

    LifecycleException(String component, Throwable cause) {
        super("could not start " + component + ": " + cause.getMessage(), cause);
        this.component = component;
    }

    /** The name of the component that failed to start. */
    public String component() {
        return component;
    }
}
