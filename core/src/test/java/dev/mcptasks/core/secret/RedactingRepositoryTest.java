package dev.mcptasks.core.secret;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.ClaimToken;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What an upstream echoed of a configured secret never reaches the store: errors, results, messages. */
class RedactingRepositoryTest {
    private static final String SECRET = "sk-live-0123456789abcdef";
    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository store = new InMemoryTaskRepository(clock, ids);
    private final KnownSecrets secrets = new KnownSecrets();
    private final RedactingRepository repository = new RedactingRepository(store, secrets);

    @Test
    void aFailureEchoingTheSecretIsStoredWithoutIt() {
        secrets.remember(SECRET);
        Claim claim = claim(ClaimPhase.SUBMIT);

        assertThat(repository.releaseAfterFailure(claim, new FailureWrite("server 'x' answered HTTP 401: Authorization:"
                + " Bearer " + SECRET, clock.now(), clock.now(), false, null))).isTrue();

        TaskRecord row = store.find(claim.taskId()).orElseThrow();
        assertThat(row.toString()).doesNotContain(SECRET);
        assertThat(row.control().lastPollError()).contains("Bearer [redacted]");
    }

    @Test
    void aResultAndAnErrorEchoingTheSecretAreStoredWithoutIt() {
        secrets.remember(SECRET);
        Claim submit = claim(ClaimPhase.SUBMIT);
        repository.recordSubmitAttempt(submit);
        assertThat(repository.applySubmitted(submit, new SubmitWrite("r-1", new StoredSnapshot(TaskStatus.WORKING,
                "saw " + SECRET, null, false, null, null, null), 600_000L, "2025-11-25", null, clock.now(), null)))
                .isTrue();
        Claim poll = claim(ClaimPhase.POLL);
        assertThat(repository.applyOutcome(poll, new OutcomeWrite(new StoredSnapshot(TaskStatus.COMPLETED, null,
                "{\"content\":[{\"type\":\"text\",\"text\":\"key " + SECRET + "\"}]}", false, null, null, null),
                null, null, null))).isTrue();

        TaskRecord row = store.find(submit.taskId()).orElseThrow();
        assertThat(row.state().resultJson()).doesNotContain(SECRET).contains("key [redacted]");
    }

    @Test
    void batchedDeliveryWritesReachTheStoreAsBatches() {
        int[] batches = {0, 0};
        RedactingRepository redacting = new RedactingRepository(ComposedTaskRepository.of(store)
                .withOutbox(outbox -> new ForwardingNotificationOutbox() {
                    @Override
                    public NotificationOutbox delegate() {
                        return outbox;
                    }

                    @Override
                    public List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
                        batches[0]++;
                        return delegate().markAllDispatched(claims);
                    }

                    @Override
                    public List<Boolean> finishNotifications(List<NotificationClaim> claims) {
                        batches[1]++;
                        return delegate().finishNotifications(claims);
                    }
                }), secrets);
        List<NotificationClaim> claims = List.of(delivery("t-1"), delivery("t-2"));

        redacting.markAllDispatched(claims);
        redacting.finishNotifications(claims);

        assertThat(batches).containsExactly(1, 1);
    }

    private NotificationClaim delivery(String task) {
        return new NotificationClaim(TaskId.of(task), WorkerId.of("w"), ClaimToken.of("k-" + task),
                clock.now().plusSeconds(30), 1, "{}", 1);
    }

    private Claim claim(ClaimPhase phase) {
        if (phase == ClaimPhase.SUBMIT) {
            store.create(new NewTask(ids.newTaskId(), "alpha", "tool", "{}", "mcp-tasks", null, null));
        }
        clock.advance(Duration.ofMinutes(10));
        return store.claimControl(new ControlClaimRequest(phase, WorkerId.of("w"), 1, Duration.ofSeconds(120),
                Duration.ofSeconds(30), Set.of())).get(0).claim();
    }
}
