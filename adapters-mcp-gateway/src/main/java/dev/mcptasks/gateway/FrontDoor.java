package dev.mcptasks.gateway;

import java.util.Objects;

/**
 * PLACEHOLDER for the protocol layer's public front door (written by another change); it exists only so that the
 * transports' public factories compile. The merge replaces this file with the real one, which keeps the
 * package-private {@link #dispatcher()} the transports rely on.
 */
public final class FrontDoor {
    private final FrontDispatcher dispatcher;

    FrontDoor(FrontDispatcher dispatcher) {
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
    }

    FrontDispatcher dispatcher() {
        return dispatcher;
    }
}
