package dev.mcptasks.app.assembly;

import com.google.inject.Module;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.http.HttpTransportModule;
import dev.mcptasks.stdio.StdioTransportModule;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one place that chooses modules, once, from the configuration: the store module by database url, both MCP
 * transports (each server picks the one that supports it), the real clock and ids. Tests replace the platform
 * (clock, ids, store, transports) with fakes and keep the rest of the wiring.
 */
public final class AppRoot implements ApplicationFactory {
    private final Function<AppConfig, List<Module>> platform;

    public AppRoot(Function<AppConfig, List<Module>> platform) {
        this.platform = Objects.requireNonNull(platform, "platform");
    }

    /** The production wiring. */
    public static AppRoot production() {
        return new AppRoot(config -> List.of(new SystemModule(), StoreModules.forDatabase(config.database()),
                new StdioTransportModule(), new HttpTransportModule()));
    }

    @Override
    public Application openClient(AppConfig config) {
        return open(config, List.of());
    }

    @Override
    public Application openWorker(AppConfig config, WorkerId worker) {
        return open(config, List.of(new WorkerModule(worker)));
    }

    private Application open(AppConfig config, List<Module> extra) {
        List<Module> modules = new ArrayList<>();
        modules.add(new CoreModule(config));
        modules.addAll(platform.apply(config));
        modules.addAll(extra);
        return new Application(HardenedInjector.create(modules));
    }
}
