package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which request an SSE event answers, read from the top level of the message only. */
class JsonRpcIdsTest {

    @Test
    void aRequestHasAMethodAndAnId() {
        assertThat(JsonRpcIds.requestId("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"id\":9}}"))
                .isEqualTo("7");
        assertThat(JsonRpcIds.requestId("{\"params\":{},\"method\":\"x\",\"id\":\"a-1\"}")).isEqualTo("\"a-1\"");
        assertThat(JsonRpcIds.requestId("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).isNull();
        assertThat(JsonRpcIds.requestId("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}")).isNull();
        assertThat(JsonRpcIds.requestId("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")).isNull();
    }

    @Test
    void anAnswerHasAResultOrAnErrorAndNoMethod() {
        assertThat(JsonRpcIds.answerId("{\"jsonrpc\":\"2.0\",\"result\":{\"id\":5,\"method\":\"m\"},\"id\":7}"))
                .isEqualTo("7");
        assertThat(JsonRpcIds.answerId("{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"error\":{\"code\":-1}}")).isEqualTo("\"7\"");
        assertThat(JsonRpcIds.answerId("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\"}")).isNull();
        assertThat(JsonRpcIds.answerId("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}")).isNull();
    }

    @Test
    void numbersAndStringsNeverMatchAndNumbersCompareByValue() {
        assertThat(JsonRpcIds.answerId("{\"id\":1,\"result\":1}"))
                .isNotEqualTo(JsonRpcIds.requestId("{\"id\":\"1\",\"method\":\"m\"}"))
                .isEqualTo(JsonRpcIds.requestId("{\"id\":1.0,\"method\":\"m\"}"));
    }

    @Test
    void anythingElseHasNoId() {
        assertThat(JsonRpcIds.answerId("[{\"id\":1,\"result\":1}]")).isNull();
        assertThat(JsonRpcIds.answerId("not json")).isNull();
        assertThat(JsonRpcIds.answerId("{\"id\":1,\"result\":")).isNull();
        assertThat(JsonRpcIds.requestId("")).isNull();
    }
}
