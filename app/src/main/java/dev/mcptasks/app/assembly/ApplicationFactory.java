package dev.mcptasks.app.assembly;

import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.domain.WorkerId;

/** Assembles the process for one command: a client (submit, list, ...) or a worker ({@code serve}). */
public interface ApplicationFactory {
    /** Store and task service only: no MCP sessions, no runtime. */
    Application openClient(AppConfig config);

    /** Everything a worker needs, including its {@code WorkerRuntime} (not yet started), and OAuth when configured. */
    Application openWorker(AppConfig config, WorkerId worker);

    /**
     * Store and OAuth ({@code OAuthLogins}) for the {@code auth} commands; like every process with OAuth it needs
     * {@code MCP_TASKS_SECRET_KEY}. The other client commands never touch a token, and run without the key.
     */
    Application openLogins(AppConfig config);

    /**
     * The front door ({@code FrontDoor}, {@code GatewaySettings}) and, when {@code worker} is given, a worker in the
     * same process (as {@link #openWorker}); without one, the gateway only persists and reads tasks, and separate
     * {@code serve} workers on the same database drive them.
     */
    Application openGateway(AppConfig config, WorkerId worker);
}
