package dev.mcptasks.adapters.admin;

import java.util.Optional;

/**
 * One condition of {@code /healthz} or {@code /readyz}: empty when it holds, else a one-line reason. The application
 * binds its checks ({@link AdminModule}); a check may block on the store, the listener bounds how long it waits.
 */
@FunctionalInterface
public interface HealthCheck {
    Optional<String> problem();
}
