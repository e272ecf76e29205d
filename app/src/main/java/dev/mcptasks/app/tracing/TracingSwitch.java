package dev.mcptasks.app.tracing;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether the standard OpenTelemetry environment asks for traces. The SDK's own default exporter is OTLP to
 * localhost, so building it unconditionally would export (and log connection failures) on every machine: tracing is
 * on only when one of these is set, and off when {@code OTEL_SDK_DISABLED=true} or {@code OTEL_TRACES_EXPORTER=none}.
 */
public final class TracingSwitch {
    /** Chooses the trace exporter(s) ({@code otlp}, {@code console}, {@code logging-otlp}); {@code none} is off. */
    public static final String TRACES_EXPORTER = "OTEL_TRACES_EXPORTER";
    /** The OTLP endpoint of every signal; setting it alone turns traces on (exporter {@code otlp}). */
    public static final String OTLP_ENDPOINT = "OTEL_EXPORTER_OTLP_ENDPOINT";
    /** The OTLP endpoint of traces; setting it alone turns traces on (exporter {@code otlp}). */
    public static final String OTLP_TRACES_ENDPOINT = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
    /** {@code true} turns the SDK off whatever else is set. */
    public static final String SDK_DISABLED = "OTEL_SDK_DISABLED";

    private TracingSwitch() {}

    /** The variable that turns tracing on, or empty when tracing stays off. */
    public static Optional<String> enabledBy(Function<String, String> environment) {
        if ("true".equalsIgnoreCase(trimmed(environment.apply(SDK_DISABLED)))) {
            return Optional.empty();
        }
        String exporter = trimmed(environment.apply(TRACES_EXPORTER));
        if (exporter != null) {
            return "none".equals(exporter.toLowerCase(Locale.ROOT)) ? Optional.empty() : Optional.of(TRACES_EXPORTER);
        }
        for (String endpoint : new String[] {OTLP_TRACES_ENDPOINT, OTLP_ENDPOINT}) {
            if (trimmed(environment.apply(endpoint)) != null) {
                return Optional.of(endpoint);
            }
        }
        return Optional.empty();
    }

    private static String trimmed(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
