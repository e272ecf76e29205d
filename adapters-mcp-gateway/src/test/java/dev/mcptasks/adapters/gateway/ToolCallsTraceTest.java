package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.trace.TraceContext;
import org.junit.jupiter.api.Test;

/** The trace a front tools/call continues: its {@code _meta.traceparent}, else its HTTP headers, else none. */
class ToolCallsTraceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HEADER = "00-11111111111111111111111111111111-2222222222222222-01";
    private static final String META = "00-33333333333333333333333333333333-4444444444444444-01";

    @Test
    void theMetaContextWinsOverTheHeadersAndAMalformedOneFallsBackToThem() throws Exception {
        FrontRequest withHeaders = new FrontRequest("alice", null, JSON.createObjectNode(),
                TraceContext.parse(HEADER, "h=1"));

        assertThat(ToolCalls.trace(withHeaders, params("{\"traceparent\":\"" + META + "\",\"tracestate\":\"m=1\"}")))
                .isEqualTo(TraceContext.parse(META, "m=1"));
        assertThat(ToolCalls.trace(withHeaders, params("{\"traceparent\":\"garbage\"}")))
                .isEqualTo(TraceContext.parse(HEADER, "h=1"));
        assertThat(ToolCalls.trace(withHeaders, JSON.createObjectNode().put("name", "t")))
                .isEqualTo(TraceContext.parse(HEADER, "h=1"));
        assertThat(ToolCalls.trace(new FrontRequest("alice", null, JSON.createObjectNode()),
                JSON.createObjectNode())).isNull();
    }

    private static ObjectNode params(String meta) throws Exception {
        return (ObjectNode) JSON.readTree("{\"name\":\"t\",\"_meta\":" + meta + "}");
    }
}
