package dev.mcptasks.adapters.http;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.ports.auth.HttpAuthorizers;
import dev.mcptasks.ports.transport.McpTransportFactory;
import java.util.Optional;

/**
 * Registers the Streamable HTTP transport factory under kind {@code http}. {@link HttpAuthorizers} is optional (an
 * {@link OptionalBinder} without a default, which every HTTP transport module declares alike): a deployment without
 * OAuth binds none and its servers get {@link HttpAuthorizers#none()}.
 */
public final class HttpTransportModule extends AbstractModule {
    @Override
    protected void configure() {
        OptionalBinder.newOptionalBinder(binder(), HttpAuthorizers.class);
        MapBinder.newMapBinder(binder(), String.class, McpTransportFactory.class)
                .addBinding(HttpTransportFactory.KIND).to(HttpTransportFactory.class);
    }

    @Provides
    @Singleton
    HttpTransportFactory factory(Optional<HttpAuthorizers> authorizers) {
        return new HttpTransportFactory(authorizers.orElseGet(HttpAuthorizers::none));
    }
}
