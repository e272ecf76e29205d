package dev.mcptasks.adapters.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each rung of the shutdown ladder is reached only when the one before it did not end the child. */
class ChildProcessShutdownTest {

    /** Starts the child, waits until it printed {@code ready} (its signal handling is then in place), stops it. */
    private static ChildProcessShutdown.Ending stopWhenReady(Duration grace, String script) throws IOException {
        Process process = new ProcessBuilder("sh", "-c", script).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        process.getOutputStream().close();
        ChildProcessShutdown.Ending ending = ChildProcessShutdown.stop(process, grace);
        assertThat(process.isAlive()).isFalse();
        return ending;
    }

    @Test
    void childThatExitsOnEofNeedsNoSignal() throws IOException {
        // a generous grace: the child exits as soon as it reads EOF, so the wait ends early
        assertThat(stopWhenReady(Duration.ofSeconds(10), "echo ready; cat >/dev/null"))
                .isEqualTo(ChildProcessShutdown.Ending.EXITED);
    }

    @Test
    void childIgnoringEofIsTerminated() throws IOException {
        assertThat(stopWhenReady(Duration.ofMillis(300), "echo ready; exec sleep 60"))
                .isEqualTo(ChildProcessShutdown.Ending.TERMINATED);
    }

    @Test
    void childIgnoringSigtermIsKilled() throws IOException {
        assertThat(stopWhenReady(Duration.ofMillis(300), "trap '' TERM; echo ready; while true; do sleep 1; done"))
                .isEqualTo(ChildProcessShutdown.Ending.KILLED);
    }
}
