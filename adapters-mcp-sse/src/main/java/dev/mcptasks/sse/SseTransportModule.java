package dev.mcptasks.sse;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import dev.mcptasks.ports.transport.McpTransportFactory;

/** Registers the legacy HTTP+SSE transport factory under kind {@code sse}. */
public final class SseTransportModule extends AbstractModule {
    @Override
    protected void configure() {
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class)
                .addBinding(SseTransportFactory.KIND).toInstance(new SseTransportFactory());
    }
}
