package dev.mcptasks.ports.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Only a well-formed W3C context is ever stored or sent on; a malformed tracestate is dropped, not the parent. */
class TraceContextTest {
    private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aWellFormedContextIsKeptWithItsIds() {
        TraceContext context = TraceContext.parse(" " + PARENT + " ", "congo=t61rcWkgMzE");

        assertThat(context.traceparent()).isEqualTo(PARENT);
        assertThat(context.tracestate()).isEqualTo("congo=t61rcWkgMzE");
        assertThat(context.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(context.spanId()).isEqualTo("00f067aa0ba902b7");
        assertThat(TraceContext.parse("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-later", null))
                .as("a later version's longer form").isNotNull();
    }

    @Test
    void malformedParentsAreNoContext() {
        for (String bad : new String[] {null, "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
                "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
                "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", PARENT + "-extra",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0\n"}) {
            assertThat(TraceContext.parse(bad, "a=b")).as(String.valueOf(bad)).isNull();
        }
        assertThatThrownBy(() -> new TraceContext("nope", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anEmptyOversizedOrUnprintableTracestateIsDroppedAndTheParentKept() {
        assertThat(TraceContext.parse(PARENT, "").tracestate()).isNull();
        assertThat(TraceContext.parse(PARENT, "a=" + "x".repeat(TraceContext.MAX_TRACESTATE)).tracestate()).isNull();
        assertThat(TraceContext.parse(PARENT, "a=b\r\nX-Injected: 1").tracestate()).isNull();
        assertThat(TraceContext.parse(PARENT, "a=b\r\nX-Injected: 1").traceparent()).isEqualTo(PARENT);
    }

    @Test
    void theNoOpTracingHandsItsParentOnAndRecordsNothing() {
        TraceContext parent = TraceContext.parse(PARENT, null);

        assertThat(Tracing.NONE.start("claim poll", SpanRole.CONSUMER, parent).context()).isEqualTo(parent);
        assertThat(Tracing.NONE.start("submit", SpanRole.PRODUCER, null).context()).isNull();
    }
}
