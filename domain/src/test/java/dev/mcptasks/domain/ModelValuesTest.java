package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ModelValuesTest {

    @Test
    void statusSets() {
        assertThat(TaskStatus.TERMINAL).containsExactlyInAnyOrder(TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED);
        assertThat(TaskStatus.POLLABLE).containsExactlyInAnyOrder(TaskStatus.WORKING, TaskStatus.INPUT_REQUIRED);
        assertThat(TaskStatus.ATTENTION).containsExactlyInAnyOrder(TaskStatus.INPUT_REQUIRED, TaskStatus.COMPLETED,
                TaskStatus.FAILED, TaskStatus.CANCELLED);
        assertThat(TaskStatus.PENDING.isTerminal()).isFalse();
        assertThat(TaskStatus.PENDING.isPollable()).isFalse();
    }

    @Test
    void statusWireNamesRoundTrip() {
        for (TaskStatus status : TaskStatus.values()) {
            assertThat(TaskStatus.fromWire(status.wireName())).isEqualTo(status);
        }
        assertThatThrownBy(() -> TaskStatus.fromWire("running")).hasMessageContaining("unknown task status 'running'");
    }

    @Test
    void phases() {
        assertThat(ClaimPhase.NOTIFY.isControl()).isFalse();
        assertThat(ClaimPhase.fromWire("cancel")).isEqualTo(ClaimPhase.CANCEL);
    }

    @Test
    void identifiersAreBoundedAndPrintable() {
        assertThat(TaskId.of("t-1").value()).isEqualTo("t-1");
        assertThatThrownBy(() -> TaskId.of("x".repeat(129))).isInstanceOf(DomainException.class)
                .hasMessageContaining("task id is 129 characters long");
        assertThatThrownBy(() -> TaskId.of("")).hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> WorkerId.of("a b")).hasMessageContaining("visible ASCII");
        assertThatThrownBy(() -> ClaimToken.of(null)).isInstanceOf(DomainException.class);
    }

    @Test
    void submitPolicyFromConfig() {
        assertThat(SubmitPolicy.fromConfig("atMostOnce")).isEqualTo(SubmitPolicy.AT_MOST_ONCE);
        assertThat(SubmitPolicy.fromConfig("atLeastOnce")).isEqualTo(SubmitPolicy.AT_LEAST_ONCE);
        assertThatThrownBy(() -> SubmitPolicy.fromConfig("exactlyOnce")).hasMessageContaining("submitPolicy");
    }

    @Test
    void ownershipLossFenceKeepsTheFirstCauseAndBlocksWrites() {
        OwnershipLossFence fence = new OwnershipLossFence();
        fence.ensureOwned();
        assertThat(fence.markLost("renewal rejected")).isTrue();
        assertThat(fence.markLost("renewal stalled")).isFalse();
        assertThat(fence.cause()).contains("renewal rejected");
        assertThatThrownBy(fence::ensureOwned).isInstanceOf(OwnershipLossFence.OwnershipLostException.class)
                .hasMessageContaining("renewal rejected");
    }

    @Test
    void ownershipLossFenceHasExactlyOneWinnerUnderRace() throws Exception {
        for (int round = 0; round < 200; round++) {
            OwnershipLossFence fence = new OwnershipLossFence();
            AtomicInteger winners = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            Thread[] threads = new Thread[4];
            for (int i = 0; i < threads.length; i++) {
                String cause = "cause-" + i;
                threads[i] = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (fence.markLost(cause)) {
                        winners.incrementAndGet();
                    }
                });
                threads[i].start();
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(winners).hasValue(1);
        }
    }
}
