package dev.mcptasks.app.assembly;

import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.domain.WorkerId;

/** Assembles the process for one command: a client (submit, list, ...) or a worker ({@code serve}). */
public interface ApplicationFactory {
    /** Store and task service only: no MCP sessions, no runtime. */
    Application openClient(AppConfig config);

    /** Everything a worker needs, including its {@code WorkerRuntime} (not yet started). */
    Application openWorker(AppConfig config, WorkerId worker);
}
