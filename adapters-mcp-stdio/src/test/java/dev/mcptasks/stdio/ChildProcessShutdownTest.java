package dev.mcptasks.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Each rung of the shutdown ladder is reached only when the one before it did not end the child. */
class ChildProcessShutdownTest {
    private static final Duration GRACE = Duration.ofMillis(300);

    private static ChildProcessShutdown.Ending stopAfterClosingStdin(String... command) throws IOException {
        Process process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        ChildProcessShutdown.Ending ending = ChildProcessShutdown.stop(process, GRACE);
        assertThat(process.isAlive()).isFalse();
        return ending;
    }

    @Test
    void childThatExitsOnEofNeedsNoSignal() throws IOException {
        assertThat(stopAfterClosingStdin("cat")).isEqualTo(ChildProcessShutdown.Ending.EXITED);
    }

    @Test
    void childIgnoringEofIsTerminated() throws IOException {
        assertThat(stopAfterClosingStdin("sleep", "60")).isEqualTo(ChildProcessShutdown.Ending.TERMINATED);
    }

    @Test
    void childIgnoringSigtermIsKilled() throws IOException {
        assertThat(stopAfterClosingStdin("sh", "-c", "trap '' TERM; while true; do sleep 1; done"))
                .isEqualTo(ChildProcessShutdown.Ending.KILLED);
    }
}
