package dev.mcptasks.adapters.sse;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Optional;

/**
 * Registers the legacy HTTP+SSE transport factory under kind {@code sse}. {@link HttpAuthorizers} is optional (an
 * {@link OptionalBinder} without a default, which every HTTP transport module declares alike): a deployment without
 * OAuth binds none and its servers get {@link HttpAuthorizers#none()}.
 */
public final class SseTransportModule extends AbstractModule {
    @Override
    protected void configure() {
        OptionalBinder.newOptionalBinder(binder(), HttpAuthorizers.class);
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class)
                .addBinding(SseTransportFactory.KIND).to(SseTransportFactory.class);
    }

    @Provides
    @Singleton
    SseTransportFactory factory(Optional<HttpAuthorizers> authorizers) {
        return new SseTransportFactory(authorizers.orElseGet(HttpAuthorizers::none));
    }
}
