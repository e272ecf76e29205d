package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.Stage;
import java.util.ArrayList;
import java.util.List;

/**
 * Creates the one injector of the process the Airlift way: every binding explicit (no just-in-time surprises), no
 * circular proxies, and production stage so singletons and wiring errors surface at start-up, not mid-run.
 */
public final class HardenedInjector {
    private HardenedInjector() {}

    public static Injector create(List<? extends Module> modules) {
        List<Module> all = new ArrayList<>();
        all.add(new AbstractModule() {
            @Override
            protected void configure() {
                binder().requireExplicitBindings();
                binder().disableCircularProxies();
            }
        });
        all.addAll(modules);
        return Guice.createInjector(Stage.PRODUCTION, all);
    }
}
