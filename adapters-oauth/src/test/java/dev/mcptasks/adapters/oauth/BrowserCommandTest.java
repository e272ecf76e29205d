package dev.mcptasks.adapters.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configured browser command is split into words as a shell would, and the url is its last argument. */
class BrowserCommandTest {
    @TempDir
    Path dir;

    @Test
    void quotesKeepWhiteSpaceAndNothingIsExpanded() {
        assertThat(CommandWords.split("open -a 'Google Chrome'")).containsExactly("open", "-a", "Google Chrome");
        assertThat(CommandWords.split("  \"/opt/My Browser/run\"  --new-window ")).containsExactly(
                "/opt/My Browser/run", "--new-window");
        assertThat(CommandWords.split("a\\ b \"q\\\"uote\" '$HOME' \"\\n\"")).containsExactly("a b", "q\"uote",
                "$HOME", "\\n");
        assertThat(CommandWords.split("x''y \"\"")).containsExactly("xy", "");
        assertThat(CommandWords.split("   ")).isEmpty();
    }

    @Test
    void aMalformedCommandSaysWhatIsWrong() {
        assertThatThrownBy(() -> CommandWords.split("open 'Google Chrome")).hasMessage(
                "unterminated single quote at position 6");
        assertThatThrownBy(() -> CommandWords.split("open \"x")).hasMessage("unterminated double quote at position 6");
        assertThatThrownBy(() -> CommandWords.split("open \\")).hasMessage("a backslash ends the command");
        assertThatThrownBy(() -> Browser.command("open 'x").open(URI.create("http://127.0.0.1/a")))
                .isInstanceOf(OAuthFailure.class)
                .hasMessage("cannot run the browser command 'open 'x': unterminated single quote at position 6");
    }

    @Test
    void aQuotedCommandRunsWithTheUrlAsItsLastArgument() throws Exception {
        Path seen = dir.resolve("seen.txt");
        URI url = URI.create("http://127.0.0.1:8123/authorize?state=a%20b&x=1");
        // a script with spaces in it: split on white space it would not even be one argument
        Browser.command("sh -c 'printf \"%s\\n\" \"$@\" > \"$0\"' '" + seen + "'").open(url);

        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!(Files.exists(seen) && Files.size(seen) > 0) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(Files.readAllLines(seen)).isEqualTo(List.of(url.toString()));
    }
}
