package dev.mcptasks.app.assembly;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.OptionalBinder;
import dev.mcptasks.app.tracing.ProcessTracing;
import dev.mcptasks.ports.trace.Tracing;
import java.util.Objects;
import java.util.function.Function;

/**
 * Binds the process's {@link Tracing} (the core's default is {@link Tracing#NONE}) and its {@link ProcessTracing},
 * which the {@link Application} shuts down (flushing batched spans) when it closes.
 */
public final class TracingModule extends AbstractModule {
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
        OptionalBinder.newOptionalBinder(binder(), Tracing.class).setBinding().toInstance(tracing.tracing());
    }
}
