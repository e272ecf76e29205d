package dev.mcptasks.app.tracing;

import dev.mcptasks.ports.secret.SecretRedactor;
import dev.mcptasks.ports.trace.Tracing;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
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
    /** The variables handed to the SDK from an environment other than the process's (tests, embedders). */
    private static final List<String> KNOWN = List.of(TracingSwitch.TRACES_EXPORTER, TracingSwitch.OTLP_ENDPOINT,
            TracingSwitch.OTLP_TRACES_ENDPOINT, "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
            "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_TIMEOUT",
            "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG",
            "OTEL_PROPAGATORS");
    /** No SDK, no exporter: every span is the port's pass-through no-op. */
    public static final ProcessTracing OFF = new ProcessTracing(Tracing.NONE, null);

    private final Tracing tracing;
    /** Null when off. */
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

    /**
     * The {@code OTEL_*} variables of {@code environment} as the SDK's properties (the process environment, which the
     * SDK reads itself too, unless a caller passes another), over our defaults: traces only, named mcp-tasks.
     */
    private static Map<String, String> defaults(Function<String, String> environment) {
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        String resource = environment.apply("OTEL_RESOURCE_ATTRIBUTES");
        if (resource == null || !resource.contains("service.name=")) {
            properties.put("otel.service.name", "mcp-tasks");
        }
        for (String name : KNOWN) {
            String value = environment.apply(name);
            if (value != null) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        }
        return properties;
    }

    public Tracing tracing() {
        return tracing;
    }

    /** {@link #tracing()} whose error texts lose {@code secrets} (the process's configured and obtained secrets). */
    public Tracing tracing(SecretRedactor secrets) {
        return sdk == null ? tracing : new OtelTracing(sdk, secrets);
    }

    /** Flushes what is batched and stops the exporter (bounded: 10 s). */
    @Override
    public void close() {
        if (sdk != null) {
            sdk.shutdown().join(10, TimeUnit.SECONDS);
        }
    }
}
