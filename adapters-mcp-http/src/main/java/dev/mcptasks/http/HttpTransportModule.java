package dev.mcptasks.http;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import dev.mcptasks.ports.transport.McpTransportFactory;

/** Registers the Streamable HTTP transport factory under kind {@code http}. */
public final class HttpTransportModule extends AbstractModule {
    @Override
    protected void configure() {
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class)
                .addBinding(HttpTransportFactory.KIND).toInstance(new HttpTransportFactory());
    }
}
