package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.repository.WorkerInfo;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Repository contract topic: worker liveness is judged by the store's clock. A heartbeat is stamped with the store's now
 * and compared with the store's now, so a worker whose own clock is far off still counts live while it heartbeats,
 * and a heartbeat older than the bound counts stale whatever the claiming worker's clock says. Also the release that
 * hands a row to the process-local endpoint of its creator.
 */
public interface WorkerLivenessContract extends RepositoryFixture {
    Duration SKEW = Duration.ofHours(1);

    @Test
    default void aWorkerWhoseOwnClockRunsBehindStillCountsLive() {
        TaskRepository ownerHandle = peer(new ManualClock(now().minus(SKEW)));
        ownerHandle.heartbeat(new WorkerInfo(A, "host-a", 1, now().minus(SKEW)));
        TaskId ofA = working(SERVER, A);

        assertThat(claim(ClaimPhase.POLL, B, 10)).as("A heartbeats; only its clock is behind").isEmpty();
        assertThat(repo().isWorkerAlive(A, LIVENESS)).isTrue();
        assertThat(claimedIds(ClaimPhase.POLL, A, 10)).containsExactly(ofA);
    }

    @Test
    default void aClaimerWhoseOwnClockRunsAheadStillSeesALiveOwner() {
        heartbeat(A);
        working(SERVER, A);
        TaskRepository claimerHandle = peer(new ManualClock(now().plus(SKEW)));

        assertThat(claimerHandle.claimControl(new ControlClaimRequest(ClaimPhase.POLL, B, 10, LEASE, LIVENESS,
                Set.of()))).as("A heartbeats; only B's clock is ahead").isEmpty();
        assertThat(claimerHandle.isWorkerAlive(A, LIVENESS)).isTrue();
    }

    @Test
    default void aHeartbeatOlderThanTheBoundByTheStoresClockCountsStale() {
        heartbeat(A);
        TaskId ofA = working(SERVER, A);
        ageHeartbeats(LIVENESS.minusSeconds(10));
        assertThat(repo().isWorkerAlive(A, LIVENESS)).isTrue();
        assertThat(claim(ClaimPhase.POLL, B, 10)).isEmpty();

        ageHeartbeats(Duration.ofSeconds(11));

        assertThat(repo().isWorkerAlive(A, LIVENESS)).isFalse();
        assertThat(repo().isWorkerAlive(A, LIVENESS.multipliedBy(2))).as("a wider bound").isTrue();
        assertThat(claimedIds(ClaimPhase.POLL, B, 10)).containsExactly(ofA);
    }

    @Test
    default void aDeregisteredOrUnknownWorkerIsNotAlive() {
        heartbeat(A);
        assertThat(repo().isWorkerAlive(A, LIVENESS)).isTrue();
        repo().removeWorker(A);

        assertThat(repo().isWorkerAlive(A, LIVENESS)).isFalse();
        assertThat(repo().isWorkerAlive(C, LIVENESS)).isFalse();
    }

    @Test
    default void aHeartbeatRefreshesTheStoresStampAndKeepsTheFirstRegistration() {
        repo().heartbeat(new WorkerInfo(A, "host-a", 11, now()));
        ageHeartbeats(LIVENESS.plusSeconds(1));
        assertThat(repo().isWorkerAlive(A, LIVENESS)).isFalse();

        peer(new ManualClock(now().minus(SKEW))).heartbeat(new WorkerInfo(A, "elsewhere", 99, now().minus(SKEW)));

        assertThat(repo().isWorkerAlive(A, LIVENESS)).as("refreshed by the store's clock").isTrue();
        assertThat(repo().workers()).singleElement().satisfies(worker -> {
            assertThat(worker.host()).isEqualTo("host-a");
            assertThat(worker.pid()).isEqualTo(11);
            assertThat(worker.startedAt()).isEqualTo(now());
        });
    }

    @Test
    default void aReleaseToTheEndpointHandsTheRowToItsCreatorAndChangesNothingElse() {
        heartbeat(A);
        heartbeat(B);
        TaskId id = working(SERVER, null);
        assertThat(record(id).state().createdBy()).isEqualTo(A);
        Claim polledByB = claimRow(ClaimPhase.POLL, B, id);
        TaskRecord before = record(id);

        assertThat(repo().releaseToEndpoint(polledByB, A)).isTrue();

        TaskRecord after = record(id);
        assertThat(after.state().endpointOwner()).isEqualTo(A);
        assertThat(after.lease()).isEqualTo(TaskRecord.Lease.NONE);
        assertThat(after.control()).isEqualTo(before.control());
        assertThat(after.outbox()).isEqualTo(before.outbox());
        assertThat(after.state().status()).isEqualTo(before.state().status());
        assertThat(after.state().updatedAt()).isEqualTo(before.state().updatedAt());
        assertThat(claim(ClaimPhase.POLL, B, 10)).as("A is alive and owns the endpoint now").isEmpty();
        assertThat(claimedIds(ClaimPhase.POLL, A, 10)).containsExactly(id);
        assertThat(repo().releaseToEndpoint(polledByB, B)).as("a released claim fences nothing").isFalse();
        assertThat(record(id).state().endpointOwner()).isEqualTo(A);
    }
}
