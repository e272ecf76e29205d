package dev.mcptasks.adapters.httpsupport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A call that ended sends nothing more, releases what it built, and an abort's cause is how it ends. */
class UnsentRequestsTest {
    @Test
    void aLiveCallSendsItsRequest() {
        ByteBuf request = Unpooled.buffer(4);

        assertThat(UnsentRequests.dropIfEnded(new CompletableFuture<>(), null, request)).isFalse();
        assertThat(request.refCnt()).isEqualTo(1);
        request.release();
    }

    @Test
    void anAbortedCallDropsTheRequestAndFailsWithTheAbortsCause() {
        ByteBuf request = Unpooled.buffer(4);
        CompletableFuture<Void> done = new CompletableFuture<>();
        McpTransportException cause = new McpTransportException(Kind.CLOSED, "closed");

        assertThat(UnsentRequests.dropIfEnded(done, cause, request)).isTrue();
        assertThat(request.refCnt()).isZero();
        assertThat(done).isCompletedExceptionally();
        assertThat(done.handle((value, error) -> error).join()).isSameAs(cause);
    }

    @Test
    void aCallThatFinishedDropsTheRequestAndStaysAsItEnded() {
        ByteBuf request = Unpooled.buffer(4);
        CompletableFuture<Void> done = CompletableFuture.completedFuture(null);

        assertThat(UnsentRequests.dropIfEnded(done, null, request)).isTrue();
        assertThat(request.refCnt()).isZero();
        assertThat(done).isCompleted().isNotCompletedExceptionally();
    }
}
