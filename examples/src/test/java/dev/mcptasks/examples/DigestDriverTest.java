package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.driver.RemoteCallException;
import dev.mcptasks.ports.driver.RemoteFailure;
import dev.mcptasks.ports.driver.RemoteTaskRef;
import dev.mcptasks.ports.driver.SubmitCall;
import dev.mcptasks.ports.driver.SubmitResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The custom driver alone: a digest finishes at submit as an MCP tool result; a bad call is refused, saying why. */
class DigestDriverTest {
    private static final TaskId TASK = TaskId.of("t1");

    private final DigestDriver driver = new DigestDriver();

    @Test
    void sha512FinishesAtSubmitWithTheDigestAsTextAndStructuredContent() throws Exception {
        SubmitResult result = driver.submit(call("sha512", "{\"text\": \"abc\"}")).get();

        String hex = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f";
        assertThat(result.createdTask()).isFalse();
        assertThat(result.processLocal()).isFalse();
        assertThat(result.snapshot().status()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(StrictJson.parse(result.snapshot().resultJson())).isEqualTo(Map.of(
                "content", List.of(Map.of("type", "text", "text", hex)),
                "structuredContent", Map.of("algorithm", "SHA-512", "hex", hex)));
    }

    @Test
    void textIsHashedAsUtf8() throws Exception {
        SubmitResult result = driver.submit(call("sha256", "{\"text\": \"na\\u00efve \\u2603\"}")).get();

        assertThat(result.snapshot().resultJson())
                .contains("090b6d95f29a5638955bac4d0cd4ba18e8733d26d0889afcc3d58c357847088e");
    }

    @Test
    void anUnknownToolIsRefusedNamingTheToolsOffered() {
        assertRefused(driver.submit(call("md5", "{\"text\": \"abc\"}")),
                "unknown tool 'md5'; the digest driver offers [sha256, sha512]");
    }

    @Test
    void textThatIsNotAStringIsRefused() {
        assertRefused(driver.submit(call("sha256", "{\"text\": 42}")), "tool 'sha256' needs a string argument 'text'");
    }

    @Test
    void thereIsNoRemoteTaskToReadOrCancel() {
        RemoteTaskRef ref = new RemoteTaskRef(TASK, "local", "sha256", "r1");
        assertThatThrownBy(() -> driver.status(ref).get()).cause().isInstanceOf(RemoteCallException.class)
                .extracting(error -> ((RemoteCallException) error).failure()).isEqualTo(RemoteFailure.TASK_LOST);
        assertThatThrownBy(() -> driver.cancel(ref).get()).cause().isInstanceOf(RemoteCallException.class)
                .extracting(error -> ((RemoteCallException) error).failure()).isEqualTo(RemoteFailure.UNSUPPORTED);
    }

    private static SubmitCall call(String tool, String argumentsJson) {
        return new SubmitCall(TASK, "local", tool, argumentsJson, null);
    }

    private static void assertRefused(CompletableFuture<SubmitResult> submitted, String reason) {
        assertThatThrownBy(submitted::get).isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(RemoteCallException.class).hasMessage(reason)
                .extracting(error -> ((RemoteCallException) error).failure()).isEqualTo(RemoteFailure.REFUSED);
    }
}
