package dev.mcptasks.adapters.admin;

/**
 * One page or endpoint of the admin listener, registered under its path with {@link AdminModule#routes}. Runs on the
 * listener's worker threads (never on the event loop), so it may read the store; it must return within a few seconds.
 */
@FunctionalInterface
public interface AdminRoute {
    AdminReply handle(AdminRequest request);
}
