package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StrictJsonTest {

    @Test
    void parsesEveryKindOfValue() {
        Object value = StrictJson.parse(" {\"a\": [1, -2.5e3, true, false, null, \"x\\u0041\\n\"], \"b\": {}} ");
        assertThat(value).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        List<Object> a = (List<Object>) ((Map<?, ?>) value).get("a");
        assertThat(a).containsExactly(new StrictJson.JsonNumber("1"), new StrictJson.JsonNumber("-2.5e3"), true,
                false, StrictJson.NULL, "xA\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "Infinity", "-Infinity", "{\"a\": NaN}", "[1,]", "{\"a\":1,}", "01", "1.",
            "\"unterminated", "{\"a\":1}x", "", "{'a':1}", "{\"a\":1,\"a\":2}", "\"tab\tinside\"", "[-]"})
    void rejectsWhatIsNotStrictJson(String text) {
        assertThatThrownBy(() -> StrictJson.parse(text)).isInstanceOf(DomainException.class);
        assertThat(StrictJson.isValid(text)).isFalse();
    }

    @Test
    void errorsNameTheOffset() {
        assertThatThrownBy(() -> StrictJson.parse("[1, x]")).hasMessageContaining("offset 4");
    }

    @Test
    void requireValidNamesTheField() {
        assertThatThrownBy(() -> StrictJson.requireValid("arguments", "{nope"))
                .isInstanceOf(DomainException.class)
                .hasMessageStartingWith("arguments is not valid JSON");
    }

    @Test
    void canonicalFormSortsKeysAndDropsWhitespace() {
        assertThat(StrictJson.canonicalize("{ \"b\" : [1, {\"d\":1, \"c\":2}], \"a\" : \"\\u00e9\" }"))
                .isEqualTo("{\"a\":\"\u00e9\",\"b\":[1,{\"c\":2,\"d\":1}]}");
    }

    @Test
    void canonicalFormKeepsNumberLiterals() {
        assertThat(StrictJson.canonicalize("[1.50, 1e2]")).isEqualTo("[1.50,1e2]");
    }

    @Test
    void writerEscapesControlCharacters() {
        assertThat(StrictJson.quote("a\"b\\c\u0001")).isEqualTo("\"a\\\"b\\\\c\\u0001\"");
        assertThat(StrictJson.isValid(StrictJson.quote("line\nbreak\u0002"))).isTrue();
    }

    @Test
    void rejectsExcessiveNesting() {
        String deep = "[".repeat(300) + "]".repeat(300);
        assertThatThrownBy(() -> StrictJson.parse(deep)).hasMessageContaining("nesting");
    }
}
