package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.gateway.FrontSessionStore;
import dev.mcptasks.ports.gateway.StoredFrontSession;
import dev.mcptasks.ports.repository.CloseableTaskRepository;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link FrontSessionStore} on a task store: extend it, implement the fixture's methods and
 * {@link #sessionsOf}. A session comes back as saved (times at millisecond precision), also through a second
 * repository on the same database (another gateway process); touch only moves the last use forward; delete and the
 * purge by last use remove it, the purge a bounded batch at a time.
 */
public abstract class FrontSessionStoreContract extends ContractFixture {
    private static final String CAPABILITIES = "{\"elicitation\":{},\"tasks\":{\"list\":{}}}";

    /** The front session store on the database of {@code repository}. */
    protected abstract FrontSessionStore sessionsOf(CloseableTaskRepository repository);

    private FrontSessionStore sessions() {
        return sessionsOf(repo);
    }

    private StoredFrontSession session(String id, String principal) {
        return new StoredFrontSession(id, principal, "2025-11-25", CAPABILITIES, now(), now());
    }

    @Test
    void aSavedSessionComesBackAsSavedAlsoThroughAnotherProcess() {
        Instant created = now().plusNanos(123_456); // below the millisecond: kept at millisecond precision
        sessions().save(new StoredFrontSession("0123abcd", "alice", "2025-06-18", CAPABILITIES, created, created));

        StoredFrontSession found = sessions().find("0123abcd").orElseThrow();
        assertThat(found.principal()).isEqualTo("alice");
        assertThat(found.protocolVersion()).isEqualTo("2025-06-18");
        assertThat(found.capabilitiesJson()).isEqualTo(CAPABILITIES);
        assertThat(found.createdAt()).isEqualTo(now());
        assertThat(found.lastUsedAt()).isEqualTo(now());
        assertThat(sessions().find("ffff")).isEmpty();
        assertThat(sessionsOf(peer()).find("0123abcd")).contains(found);
    }

    @Test
    void touchMovesTheLastUseOnlyForward() {
        sessions().save(session("s1", "alice"));
        Instant created = now();
        advance(Duration.ofMinutes(2));

        assertThat(sessions().touch("s1", now())).isTrue();
        assertThat(sessions().find("s1").orElseThrow().lastUsedAt()).isEqualTo(now());
        assertThat(sessions().find("s1").orElseThrow().createdAt()).isEqualTo(created);
        assertThat(sessions().touch("s1", now().minusSeconds(60))).isTrue();
        assertThat(sessions().find("s1").orElseThrow().lastUsedAt()).isEqualTo(now());
        assertThat(sessions().touch("gone", now())).isFalse();
        assertThat(sessions().find("gone")).isEmpty();
    }

    @Test
    void deleteEndsTheSession() {
        sessions().save(session("s1", "alice"));
        sessions().save(session("s2", "alice"));

        assertThat(sessions().delete("s1")).isTrue();
        assertThat(sessions().delete("s1")).isFalse();
        assertThat(sessions().find("s1")).isEmpty();
        assertThat(sessions().touch("s1", now())).isFalse();
        assertThat(sessions().find("s2")).isPresent();
    }

    @Test
    void thePurgeDeletesOnlySessionsUnusedSinceTheCutoffInBoundedBatches() {
        for (int i = 0; i < 5; i++) {
            sessions().save(session("old-" + i, "alice"));
        }
        sessions().save(session("touched", "bob"));
        advance(Duration.ofHours(1));
        sessions().touch("touched", now());
        sessions().save(session("new", "alice"));

        assertThat(sessions().purgeUnusedSince(now().minus(Duration.ofHours(2)), 10)).isZero();
        assertThat(sessions().purgeUnusedSince(now(), 3)).isEqualTo(3);
        assertThat(sessions().purgeUnusedSince(now(), 3)).isEqualTo(2);
        assertThat(sessions().purgeUnusedSince(now(), 3)).isZero();
        for (int i = 0; i < 5; i++) {
            assertThat(sessions().find("old-" + i)).isEmpty();
        }
        assertThat(sessions().find("touched")).isPresent();
        assertThat(sessions().find("new")).isPresent();
        assertThatThrownBy(() -> sessions().purgeUnusedSince(now(), 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
