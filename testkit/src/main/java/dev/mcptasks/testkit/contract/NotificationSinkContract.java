package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.ErrorCodes;
import dev.mcptasks.domain.NotificationRules;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.notification.DeliveryResult;
import dev.mcptasks.ports.notification.Notification;
import dev.mcptasks.ports.notification.NotificationSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the notification dispatcher needs of every {@link NotificationSink}: each delivery answered by a future (never
 * a throw) with one of the four {@link DeliveryResult}s, {@code Delivered} for an event its receiver took, the same
 * answer again for a repeat (delivery is at least once, under the same idempotency key), deliveries from many
 * threads at once, and a pending delivery that may be cancelled (the dispatcher does so when the sink is late).
 * Extend it and implement {@link #createSink}, pointed at a receiver that takes every event.
 */
public abstract class NotificationSinkContract {
    /** How long a delivery may take before the contract counts it as hung. */
    protected static final Duration TIMEOUT = Duration.ofSeconds(30);
    protected static final String SERVER = "alpha";
    protected static final String TOOL = "long_job";
    private static final int THREADS = 4;
    private static final int PER_THREAD = 5;

    private final AtomicInteger taskNumber = new AtomicInteger();
    protected NotificationSink sink;

    /** A fresh sink for one test, pointed at a receiver that takes every event. */
    protected abstract NotificationSink createSink();

    /** Releases what {@link #createSink} opened (a receiver, clients); nothing by default. */
    protected void closeSink() {}

    @BeforeEach
    void openSink() {
        sink = createSink();
    }

    @AfterEach
    void releaseSink() {
        closeSink();
    }

    /** The first delivery attempt of version 1 of a real event: a task of its own reaching {@code status}. */
    protected Notification notification(TaskStatus status) {
        TaskId id = TaskId.of("contract-" + taskNumber.incrementAndGet());
        StoredSnapshot snapshot = switch (status) {
            case COMPLETED -> new StoredSnapshot(status, "done", "{\"content\":[]}", false, null, null, null);
            case FAILED -> new StoredSnapshot(status, null, null, false, "the tool crashed", ErrorCodes.REMOTE_FAILED, null);
            case INPUT_REQUIRED -> new StoredSnapshot(status, "need a value", null, false, null, null,
                    "{\"question\":\"which size?\"}");
            default -> StoredSnapshot.cancelled("cancelled by the server");
        };
        String event = AttentionEvent.forSnapshot(id, SERVER, TOOL, snapshot).orElseThrow().payloadJson();
        return new Notification(id, 1, 1, NotificationRules.idempotencyKey(id, 1, 1), event);
    }

    @Test
    void anEventTheReceiverTakesIsDelivered() throws Exception {
        DeliveryResult result = await(deliver(notification(TaskStatus.COMPLETED)));

        assertThat(result).isInstanceOf(DeliveryResult.Delivered.class);
    }

    @Test
    void anEventOfEveryAttentionStatusIsAnswered() throws Exception {
        for (TaskStatus status : List.of(TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.INPUT_REQUIRED,
                TaskStatus.CANCELLED)) {
            assertThat(await(deliver(notification(status)))).as("the %s event", status).isNotNull();
        }
    }

    @Test
    void aRepeatedDeliveryIsAnsweredAsTheFirst() throws Exception {
        Notification once = notification(TaskStatus.FAILED);

        DeliveryResult first = await(deliver(once));
        DeliveryResult repeat = await(deliver(once));

        assertThat(repeat).as("delivery is at least once: a repeat is no error").hasSameClassAs(first);
    }

    @Test
    void deliveriesFromManyThreadsAreEachAnswered() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<List<DeliveryResult>>> batches = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                batches.add(threads.submit(() -> {
                    List<CompletableFuture<DeliveryResult>> sent = new ArrayList<>();
                    for (int i = 0; i < PER_THREAD; i++) {
                        sent.add(deliver(notification(TaskStatus.COMPLETED)));
                    }
                    List<DeliveryResult> answers = new ArrayList<>();
                    for (CompletableFuture<DeliveryResult> one : sent) {
                        answers.add(await(one));
                    }
                    return answers;
                }));
            }
            for (Future<List<DeliveryResult>> batch : batches) {
                assertThat(batch.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS))
                        .hasSize(PER_THREAD).allSatisfy(r -> assertThat(r).isInstanceOf(DeliveryResult.Delivered.class));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aDeliveryMayBeCancelledAndTheSinkGoesOn() throws Exception {
        CompletableFuture<DeliveryResult> late = deliver(notification(TaskStatus.COMPLETED));

        assertThatCode(() -> late.cancel(true)).doesNotThrowAnyException();

        assertThat(await(deliver(notification(TaskStatus.COMPLETED)))).isInstanceOf(DeliveryResult.Delivered.class);
    }

    /** Hands {@code notification} to the sink, which must answer a future and never throw. */
    protected CompletableFuture<DeliveryResult> deliver(Notification notification) {
        CompletableFuture<DeliveryResult> answer;
        try {
            answer = sink.deliver(notification);
        } catch (RuntimeException e) {
            throw new AssertionError("the sink threw instead of answering", e);
        }
        assertThat(answer).as("the sink's answer").isNotNull();
        return answer;
    }

    protected static <T> T await(CompletableFuture<T> future) throws Exception {
        T value = future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(value).as("a delivery result").isNotNull();
        return value;
    }
}
