package dev.mcptasks.app.tracing;

import dev.mcptasks.ports.trace.Tracing;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process's tracing: the port's implementation and, when an SDK was built, its shutdown (which flushes the spans
 * still batched). Off by default: only {@link TracingSwitch} turns it on, and the SDK is then configured by the
 * standard {@code OTEL_*} variables (and {@code otel.*} system properties) through the SDK's autoconfiguration.
 * Traces only: metrics and logs exporters default to {@code none} (metrics are served to Prometheus by the admin
 * listener); the service name defaults to {@code mcp-tasks}.
 */
public final class ProcessTracing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessTracing.class);
    /** No SDK, no exporter: every span is the port's pass-through no-op. */
    public static final ProcessTracing OFF = new ProcessTracing(Tracing.NONE, null);

    private final Tracing tracing;
    private final OpenTelemetrySdk sdk;

    private ProcessTracing(Tracing tracing, OpenTelemetrySdk sdk) {
        this.tracing = tracing;
        this.sdk = sdk;
    }

    /** Tracing over {@code sdk} (tests: an SDK with an in-memory exporter); closing shuts the SDK down. */
    public static ProcessTracing over(OpenTelemetrySdk sdk) {
        return new ProcessTracing(new OtelTracing(sdk), Objects.requireNonNull(sdk, "sdk"));
    }

    /** Tracing as the environment asks: {@link #OFF} unless {@link TracingSwitch} finds it turned on. */
    public static ProcessTracing fromEnvironment(Function<String, String> environment) {
        return TracingSwitch.enabledBy(environment).map(variable -> {
            OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> defaults(environment))
                    .build().getOpenTelemetrySdk();
            LOG.info("tracing on ({} is set): spans are exported as the OTEL_* environment configures", variable);
            return over(sdk);
        }).orElse(OFF);
    }

    /** The defaults under the environment's own values (which take precedence in the SDK's autoconfiguration). */
    private static Map<String, String> defaults(Function<String, String> environment) {
        Map<String, String> defaults = new HashMap<>();
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        String resource = environment.apply("OTEL_RESOURCE_ATTRIBUTES");
        if (resource == null || !resource.contains("service.name=")) {
            defaults.put("otel.service.name", "mcp-tasks");
        }
        return defaults;
    }

    public Tracing tracing() {
        return tracing;
    }

    /** Flushes what is batched and stops the exporter (bounded: 10 s). */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(10, TimeUnit.SECONDS);
        }
    }
}
