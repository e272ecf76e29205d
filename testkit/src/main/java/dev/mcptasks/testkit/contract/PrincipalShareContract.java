package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.CancelRequestOutcome;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: a submit scan leaves out the rows of the principals it names as at their share
 * ({@link ControlClaimRequest#atShare}), in due order otherwise; rows of no principal, and poll and cancel scans,
 * are never held back.
 */
public interface PrincipalShareContract extends RepositoryFixture {

    private List<TaskId> claimSharing(ClaimPhase phase, int limit, Set<String> atShare) {
        return repo().claimControl(new ControlClaimRequest(phase, A, limit, LEASE, LIVENESS, Set.of(), atShare))
                .stream().map(claimed -> claimed.claim().taskId()).toList();
    }

    @Test
    default void aSubmitScanSkipsThePrincipalsAtTheirShareAndKeepsTheDueOrder() {
        TaskId busy1 = createFor("busy");
        TaskId busy2 = createFor("busy");
        TaskId other = createFor("other");
        TaskId nobody = create();
        TaskId otherLater = createFor("other");

        assertThat(claimSharing(ClaimPhase.SUBMIT, 10, Set.of("busy"))).containsExactly(other, nobody, otherLater);
        assertThat(claimSharing(ClaimPhase.SUBMIT, 10, Set.of())).containsExactly(busy1, busy2);
    }

    @Test
    default void theLimitCountsOnlyTheRowsTaken() {
        for (int i = 0; i < 5; i++) {
            createFor("busy");
        }
        TaskId other = createFor("other");

        assertThat(claimSharing(ClaimPhase.SUBMIT, 1, Set.of("busy"))).containsExactly(other);
    }

    @Test
    default void pollAndCancelScansIgnoreShares() {
        TaskId polled = createFor("busy");
        Claim created = claimRow(ClaimPhase.SUBMIT, A, polled);
        assertThat(repo().recordSubmitAttempt(created)).isTrue();
        assertThat(repo().applySubmitted(created, submitted("r-" + polled, null))).isTrue();
        TaskId cancelled = createFor("busy");
        Claim sent = claimRow(ClaimPhase.SUBMIT, A, cancelled);
        assertThat(repo().recordSubmitAttempt(sent)).isTrue();
        assertThat(repo().releaseCancelled(sent)).isTrue();
        assertThat(repo().requestCancel(cancelled)).isEqualTo(CancelRequestOutcome.REQUESTED);

        assertThat(claimSharing(ClaimPhase.POLL, 10, Set.of("busy"))).containsExactly(polled);
        assertThat(claimSharing(ClaimPhase.CANCEL, 10, Set.of("busy"))).containsExactly(cancelled);
    }
}
