package dev.mcptasks.app.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import dev.mcptasks.ports.trace.Tracing;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tracing is off unless the OTEL_* environment asks for traces, and then only an SDK is built. */
class TracingSwitchTest {
    @Test
    void offByDefaultAndWithTheSdkDisabledOrNoTraceExporter() {
        assertThat(TracingSwitch.enabledBy(Map.<String, String>of()::get)).isEmpty();
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_SERVICE_NAME", "x")::get)).isEmpty();
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_TRACES_EXPORTER", "none",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")::get)).isEmpty();
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_SDK_DISABLED", "true",
                "OTEL_TRACES_EXPORTER", "otlp")::get)).isEmpty();
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", " ")::get)).isEmpty();
        assertThat(ProcessTracing.fromEnvironment(Map.<String, String>of()::get).tracing()).isSameAs(Tracing.NONE);
    }

    @Test
    void onWithATraceExporterOrAnOtlpEndpoint() {
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_TRACES_EXPORTER", "otlp")::get))
                .contains("OTEL_TRACES_EXPORTER");
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")::get))
                .contains("OTEL_EXPORTER_OTLP_ENDPOINT");
        assertThat(TracingSwitch.enabledBy(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                "http://collector:4318/v1/traces")::get)).contains("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    }

    @Test
    void turnedOnTheSdkIsBuiltFromTheEnvironmentAndItsSpansContinueAContext() {
        try (ProcessTracing tracing = ProcessTracing.fromEnvironment(Map.of("OTEL_TRACES_EXPORTER", "console",
                "OTEL_SERVICE_NAME", "trace-switch-test")::get)) {
            TraceContext parent = TraceContext.parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", null);
            TraceSpan span = tracing.tracing().start("submit", SpanRole.PRODUCER, parent);
            span.end();

            assertThat(tracing.tracing()).isInstanceOf(OtelTracing.class);
            assertThat(span.context().traceId()).isEqualTo(parent.traceId());
            assertThat(span.context().spanId()).isNotEqualTo(parent.spanId());
            assertThat(tracing.tracing().start("submit", SpanRole.PRODUCER, null).context())
                    .as("a root trace of its own").isNotNull();
        }
    }
}
