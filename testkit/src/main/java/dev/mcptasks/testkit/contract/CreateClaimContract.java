package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.CreateClaim;
import dev.mcptasks.ports.repository.NewTask;
import dev.mcptasks.ports.repository.TaskRecord;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: a create that takes a submit claim for a worker of its process ({@link CreateClaim}) leaves the row as a
 * submit claim scan followed by the attempt record would, in one write; the claim's fenced writes apply to it, no
 * other worker's scan takes it while the lease lasts, and an expired one is taken over as any other.
 */
public interface CreateClaimContract extends RepositoryFixture {

    private ClaimedTask createClaimed(WorkerId worker) {
        TaskRecord created = repo().create(new NewTask(ids().newTaskId(), SERVER, TOOL, ARGUMENTS, DRIVER, null)
                .claimedBy(new CreateClaim(worker, ids().newClaimToken(), LEASE)));
        return ClaimedTask.created(created);
    }

    @Test
    default void aClaimedCreateIsLeasedForSubmitWithItsAttemptRecorded() {
        ClaimedTask claimed = createClaimed(A);

        TaskRecord stored = record(claimed.claim().taskId());
        assertThat(stored).isEqualTo(claimed.task());
        assertThat(stored.state().status()).isEqualTo(TaskStatus.PENDING);
        assertThat(stored.lease())
                .isEqualTo(new TaskRecord.Lease(ClaimPhase.SUBMIT, A, claimed.claim().token(), now().plus(LEASE)));
        assertThat(stored.control().submitAttemptCount()).isEqualTo(1);
        assertThat(stored.control().submitAttemptedAt()).isEqualTo(now());
        assertThat(claimed.claim().expiresAt()).isEqualTo(now().plus(LEASE));
        assertThat(claimed.attemptRecorded()).isTrue();
        assertThat(claimed.recovered()).isFalse();
    }

    @Test
    default void noScanTakesAClaimedCreateWhileItsLeaseLasts() {
        createClaimed(A);

        assertThat(claim(ClaimPhase.SUBMIT, B, 10)).isEmpty();
        assertThat(claim(ClaimPhase.SUBMIT, A, 10)).isEmpty();
        assertThat(claim(ClaimPhase.CANCEL, B, 10)).isEmpty();
    }

    @Test
    default void theClaimsFencedWritesApplyToTheCreatedRow() {
        ClaimedTask claimed = createClaimed(A);
        Claim claim = claimed.claim();

        assertThat(repo().renew(claim, LEASE)).isTrue();
        assertThat(repo().recordProgress(claim, "halfway")).isTrue();
        assertThat(repo().applySubmitted(claim, submitted("remote-1", null))).isTrue();

        TaskRecord stored = record(claim.taskId());
        assertThat(stored.state().remoteTaskId()).isEqualTo("remote-1");
        assertThat(stored.lease()).isEqualTo(TaskRecord.Lease.NONE);
    }

    @Test
    default void anotherTokenIsFencedOut() {
        ClaimedTask claimed = createClaimed(A);
        Claim claim = claimed.claim();
        Claim forged = new Claim(claim.taskId(), ClaimPhase.SUBMIT, A, ids().newClaimToken(), claim.expiresAt());

        assertThat(repo().applySubmitted(forged, submitted("remote-1", null))).isFalse();
        assertThat(record(claim.taskId())).isEqualTo(claimed.task());
    }

    @Test
    default void anExpiredClaimedCreateIsTakenOverAsPossiblySent() {
        ClaimedTask claimed = createClaimed(A);
        advance(LEASE.plus(Duration.ofSeconds(1)));

        ClaimedTask taken = claim(ClaimPhase.SUBMIT, B, 10).get(0);

        assertThat(taken.claim().taskId()).isEqualTo(claimed.claim().taskId());
        assertThat(taken.recovered()).isTrue();
        assertThat(taken.attemptRecorded()).isFalse();
        // the create request may have gone out before the first owner died: the takeover sees it attempted
        assertThat(taken.task().control().submitAttemptedAt()).isNotNull();
        assertThat(taken.task().control().submitAttemptCount()).isEqualTo(2);
        assertThat(repo().applySubmitted(claimed.claim(), submitted("remote-1", null))).isFalse();
    }

    @Test
    default void aCancelRequestOfAClaimedCreateWaitsForTheClaimsOutcome() {
        ClaimedTask claimed = createClaimed(A);

        // the create request counts as sent: the row cannot be cancelled locally, the claim's outcome decides
        assertThat(repo().requestCancel(claimed.claim().taskId())).isEqualTo(CancelRequestOutcome.REQUESTED);
        assertThat(record(claimed.claim().taskId()).state().status()).isEqualTo(TaskStatus.PENDING);
    }
}
