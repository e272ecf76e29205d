package dev.mcptasks.adapters.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HtmlEscaperTest {
    @Test
    void escapesEveryCharacterThatOpensMarkupOrClosesAnAttribute() {
        assertThat(HtmlEscaper.text("<a href=\"x\" onclick='y'>&</a>"))
                .isEqualTo("&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
        assertThat(HtmlEscaper.text(null)).isEmpty();
    }

    @Test
    void queryValuesAreUrlEncodedThenEscaped() {
        assertThat(HtmlEscaper.query("a b&c=<d>")).isEqualTo("a+b%26c%3D%3Cd%3E");
    }

    @Test
    void boundedTextSaysHowMuchWasLeftOut() {
        assertThat(HtmlEscaper.bounded("<<<<<", 2)).isEqualTo("&lt;&lt;\n… (3 more characters)");
    }
}
