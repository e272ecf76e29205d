package dev.mcptasks.adapters.stdio;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import dev.mcptasks.ports.transport.McpTransportFactory;

/** Registers the stdio transport factory under kind {@code stdio}. */
public final class StdioTransportModule extends AbstractModule {
    @Override
    protected void configure() {
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class)
                .addBinding(StdioTransportFactory.KIND).toInstance(new StdioTransportFactory());
    }
}
