package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.Key;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.multibindings.OptionalBinder;
import com.google.inject.name.Named;
import com.google.inject.name.Names;
import dev.mcptasks.app.tracing.ProcessTracing;
import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.trace.Tracing;
import java.util.Objects;
import java.util.function.Function;

/**
 * Binds the process's {@link Tracing} (the core's default is {@link Tracing#NONE}) and its {@link ProcessTracing},
 * which the {@link Application} shuts down (flushing batched spans) when it closes.
 */
public final class TracingModule extends AbstractModule {
    private static final String REDACTING = "redacting";

    private final ProcessTracing tracing;

    /** @param tracing the process's tracing, made once per application */
    public TracingModule(ProcessTracing tracing) {
        this.tracing = Objects.requireNonNull(tracing, "tracing");
    }

    /** Tracing as the {@code OTEL_*} environment asks (off unless it is turned on). */
    public static TracingModule fromEnvironment(Function<String, String> environment) {
        return new TracingModule(ProcessTracing.fromEnvironment(environment));
    }

    @Override
    protected void configure() {
        bind(ProcessTracing.class).toInstance(tracing);
        OptionalBinder.newOptionalBinder(binder(), Tracing.class).setBinding()
                .to(Key.get(Tracing.class, Names.named(REDACTING)));
    }

    /** The process's tracing, keeping its secrets out of the error texts spans carry out of the process. */
    @Provides
    @Singleton
    @Named(REDACTING)
    Tracing redacting(SecretRedactor secrets) {
        return tracing.tracing(secrets);
    }
}
