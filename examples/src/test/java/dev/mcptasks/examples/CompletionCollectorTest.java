package dev.mcptasks.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.examples.CompletionCollector.Completion;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The custom sink alone, fed the events the runtime builds ({@link AttentionEvent}). */
class CompletionCollectorTest {
    private static final TaskId TASK = TaskId.of("t1");

    private final CompletionCollector sink = new CompletionCollector();

    @Test
    void aTerminalEventCompletesTheTasksFutureEvenWhenAskedForAfterwards() {
        assertThat(sink.deliver(notification(1, StoredSnapshot.failed("submit_refused", "no such tool"))).join())
                .isEqualTo(new DeliveryResult.Delivered());

        assertThat(sink.completion(TASK)).isCompletedWithValue(
                new Completion(TASK, "local", "sha256", TaskStatus.FAILED, "no such tool"));
    }

    @Test
    void anEventThatEndsNothingIsDeliveredButCompletesNothing() {
        CompletableFuture<Completion> waiting = sink.completion(TASK);
        String degraded = AttentionEvent.trackingDegraded(TASK, "local", TaskStatus.WORKING, "e1", "timeout")
                .payloadJson();

        assertThat(sink.deliver(new Notification(TASK, 1, 1, "k1", degraded)).join())
                .isEqualTo(new DeliveryResult.Delivered());

        assertThat(waiting).isNotDone();
        assertThat(sink.completions()).isEmpty();
    }

    @Test
    void aRepeatedDeliveryIsKeptButTheFirstEndStands() {
        CompletableFuture<Completion> waiting = sink.completion(TASK);
        sink.deliver(notification(1, StoredSnapshot.cancelled("by the user")));
        sink.deliver(notification(1, StoredSnapshot.cancelled("by the user")));

        assertThat(waiting.join().status()).isEqualTo(TaskStatus.CANCELLED);
        assertThat(sink.completions()).hasSize(2);
    }

    @Test
    void aMalformedEventIsGoneAtOnceWithTheReason() {
        DeliveryResult result = sink.deliver(new Notification(TASK, 1, 1, "k1", "[\"not an object\"]")).join();

        assertThat(result).isEqualTo(new DeliveryResult.Gone("event k1 is malformed: the event is not a JSON object"));
        assertThat(sink.completions()).isEmpty();
    }

    private static Notification notification(int attempt, StoredSnapshot snapshot) {
        String event = AttentionEvent.forSnapshot(TASK, "local", "sha256", snapshot).orElseThrow().payloadJson();
        return new Notification(TASK, 1, attempt, "mcp-task:t1:1:" + attempt, event);
    }
}
