package dev.mcptasks.app.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.core.secret.KnownSecrets;
import dev.mcptasks.ports.trace.SpanRole;
import dev.mcptasks.ports.trace.TraceContext;
import dev.mcptasks.ports.trace.TraceSpan;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The port over OpenTelemetry: W3C contexts in and out, and no secret in what a span carries out of the process. */
class OtelTracingTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String SECRET = "sk-live-0123456789abcdef";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();

    @AfterEach
    void close() {
        sdk.close();
    }

    @Test
    void aSpanContinuesItsParentAndHandsItsOwnContextOnWithTheTracestate() {
        TraceSpan span = new OtelTracing(sdk).start("claim poll", SpanRole.CONSUMER, TraceContext.parse(PARENT, "k=v"));
        span.end();

        SpanData ended = exporter.getFinishedSpanItems().get(0);
        assertThat(ended.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(span.context().traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(span.context().spanId()).isEqualTo(ended.getSpanId());
        assertThat(span.context().tracestate()).isEqualTo("k=v");
    }

    @Test
    void errorTextsLoseTheProcesssSecrets() {
        KnownSecrets secrets = new KnownSecrets();
        secrets.remember(SECRET);
        OtelTracing tracing = new OtelTracing(sdk, secrets);

        TraceSpan failed = tracing.start("tasks/get", SpanRole.CLIENT, null);
        failed.error(new IllegalStateException("401 from upstream: bad token " + SECRET));
        failed.end();
        TraceSpan lost = tracing.start("claim poll", SpanRole.CONSUMER, null);
        lost.error("renewal failed: " + SECRET);
        lost.end();

        for (SpanData span : exporter.getFinishedSpanItems()) {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getStatus().getDescription()).doesNotContain(SECRET);
            span.getEvents().forEach(event -> assertThat(String.valueOf(event.getAttributes()
                    .get(AttributeKey.stringKey("exception.message")))).doesNotContain(SECRET).contains("bad token"));
        }
        assertThat(exporter.getFinishedSpanItems().get(0).getEvents()).singleElement()
                .satisfies(event -> assertThat(event.getName()).isEqualTo("exception"));
    }
}
