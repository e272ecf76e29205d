package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One INFO line per state change a worker makes, none for a refused write or an unchanged poll. */
class EventLoggingRepositoryTest {
    private static final WorkerId W1 = WorkerId.of("w1");
    private static final WorkerId W2 = WorkerId.of("w2");
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, new SequentialIdGenerator());
    private final EventLoggingRepository events = new EventLoggingRepository(store);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(EventLoggingRepository.LOGGER);

    @BeforeEach
    void capture() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void release() {
        logger.detachAppender(lines);
    }

    @Test
    void eachStateChangeIsOneInfoLine() {
        store.create(new NewTask(TaskId.of("t1"), "srv", "tool", "{}", "mcp-tasks", null));
        Claim submit = claim(ClaimPhase.SUBMIT, W1);
        assertThat(events.applySubmitted(submit, new SubmitWrite("r1", snapshot(TaskStatus.WORKING, null), null,
                "2025-11-25", null, clock.now(), null))).isTrue();
        assertThat(drain()).containsExactly("task t1: created remotely as r1: pending -> working");

        Claim poll = claim(ClaimPhase.POLL, W1);
        assertThat(events.applyOutcome(poll, outcome(snapshot(TaskStatus.WORKING, "still going")))).isTrue();
        assertThat(drain()).as("an unchanged status").isEmpty();

        poll = claim(ClaimPhase.POLL, W1);
        assertThat(events.releaseAfterFailure(poll, new FailureWrite("timeout", clock.now(), clock.now(), false,
                null))).isTrue();
        assertThat(drain()).as("a failure release changes no status").isEmpty();

        poll = claim(ClaimPhase.POLL, W1);
        clock.advance(LEASE.plusSeconds(1));
        Claim takenOver = claim(ClaimPhase.POLL, W2);
        assertThat(drain())
                .containsExactly("task t1: taken over by worker w2 for poll: the previous poll claim expired");
        assertThat(events.applyOutcome(poll, outcome(snapshot(TaskStatus.COMPLETED, null)))).isFalse();
        assertThat(drain()).as("a write refused by its fence").isEmpty();
        assertThat(events.applyOutcome(takenOver, outcome(StoredSnapshot.failed("remote_failed", "the\ntool broke"))))
                .isTrue();
        assertThat(drain()).containsExactly("task t1: working -> failed (remote_failed: the tool broke)");
    }

    @Test
    void batchedWritesLogEachAcceptedElementAndNothingForARefusedOne() {
        store.create(new NewTask(TaskId.of("t1"), "srv", "tool", "{}", "mcp-tasks", null));
        store.create(new NewTask(TaskId.of("t2"), "srv", "tool", "{}", "mcp-tasks", null));
        List<Claim> submits = events.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT, W1, 2, LEASE, LEASE,
                Set.of())).stream().map(claimed -> claimed.claim()).toList();
        assertThat(events.releaseCancelled(submits.get(1))).isTrue();
        drain();

        assertThat(events.applySubmittedAll(submits.stream().map(claim -> new ClaimedWrite<>(claim,
                new SubmitWrite("r-" + claim.taskId().value(), snapshot(TaskStatus.WORKING, null), null,
                        "2025-11-25", null, clock.now(), null))).toList())).containsExactly(true, false);
        assertThat(drain()).containsExactly("task t1: created remotely as r-t1: pending -> working");

        List<Claim> polls = events.claimControl(new ControlClaimRequest(ClaimPhase.POLL, W1, 2, LEASE, LEASE,
                Set.of())).stream().map(claimed -> claimed.claim()).toList();
        assertThat(polls).hasSize(1);
        assertThat(events.applyOutcomes(List.of(new ClaimedWrite<>(polls.get(0),
                outcome(snapshot(TaskStatus.COMPLETED, null)))))).containsExactly(true);
        assertThat(drain()).containsExactly("task t1: working -> completed");
    }

    @Test
    void aSubmitAnsweredWithoutARemoteTaskSaysSo() {
        store.create(new NewTask(TaskId.of("t1"), "srv", "tool", "{}", "mcp-tasks", null));
        Claim submit = claim(ClaimPhase.SUBMIT, W1);

        assertThat(events.applySubmitted(submit, new SubmitWrite(null, snapshot(TaskStatus.COMPLETED, null), null,
                "2025-11-25", null, clock.now(), null))).isTrue();

        assertThat(drain()).containsExactly("task t1: answered without a remote task: pending -> completed");
    }

    @Test
    void aTakeoverNamesThePhaseOfTheExpiredClaimAsWellAsTheNewOne() {
        store.create(new NewTask(TaskId.of("t1"), "srv", "tool", "{}", "mcp-tasks", null));
        Claim submit = claim(ClaimPhase.SUBMIT, W1);
        assertThat(events.recordSubmitAttempt(submit)).isTrue();
        clock.advance(LEASE.plusSeconds(1)); // W1 died after sending the create
        events.requestCancel(TaskId.of("t1"));
        drain();

        claim(ClaimPhase.CANCEL, W2);
        assertThat(drain()).as("the new claim is a cancel, the expired one a submit")
                .containsExactly("task t1: taken over by worker w2 for cancel: the previous submit claim expired",
                        "task t1: sending the cancel request to srv");
    }

    @Test
    void cancellationIsLoggedWhenRequestedSentAndConfirmed() {
        store.create(new NewTask(TaskId.of("t1"), "srv", "tool", "{}", "mcp-tasks", null));
        store.create(new NewTask(TaskId.of("t2"), "srv", "tool", "{}", "mcp-tasks", null));
        assertThat(events.requestCancel(TaskId.of("t2")).name()).isEqualTo("CANCELLED_LOCALLY");
        assertThat(drain()).containsExactly("task t2: pending -> cancelled (cancelled before it was sent)");

        events.applySubmitted(claim(ClaimPhase.SUBMIT, W1), new SubmitWrite("r1", snapshot(TaskStatus.WORKING, null),
                null, "2025-11-25", null, clock.now(), null));
        drain();
        events.requestCancel(TaskId.of("t1"));
        assertThat(drain()).containsExactly("task t1: cancel requested");

        Claim cancel = claim(ClaimPhase.CANCEL, W1);
        assertThat(drain()).containsExactly("task t1: sending the cancel request to srv");
        events.releaseAfterFailure(cancel, new FailureWrite("refused", clock.now(), clock.now(), false, null));
        cancel = claim(ClaimPhase.CANCEL, W1);
        assertThat(drain()).as("a retried cancel is no new state").isEmpty();
        assertThat(events.applyOutcome(cancel, outcome(StoredSnapshot.cancelled(null)))).isTrue();
        assertThat(drain()).containsExactly("task t1: working -> cancelled");
    }

    private Claim claim(ClaimPhase phase, WorkerId worker) {
        return events.claimControl(new ControlClaimRequest(phase, worker, 1, LEASE, LEASE, Set.of()))
                .get(0).claim();
    }

    private OutcomeWrite outcome(StoredSnapshot snapshot) {
        return new OutcomeWrite(snapshot, null, snapshot.status().isTerminal() ? null : clock.now(), null);
    }

    private static StoredSnapshot snapshot(TaskStatus status, String message) {
        return new StoredSnapshot(status, message, null, false, null, null, null);
    }

    private List<String> drain() {
        assertThat(lines.list).allSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.INFO));
        List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        lines.list.clear();
        return messages;
    }
}
