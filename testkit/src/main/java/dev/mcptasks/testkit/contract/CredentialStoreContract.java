package dev.mcptasks.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.auth.CredentialStore;
import dev.mcptasks.ports.auth.StoredCredential;
import dev.mcptasks.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link CredentialStore} passes: extend it and implement {@link #createStore} (and
 * {@link #openPeer} when the store can be opened twice, so the race runs across two handles). Writes are
 * compare-and-set on a version that starts at 1 and grows by one per write; a write from any other version changes
 * nothing; values come back byte for byte; keys list in {@link String} order whatever the database's collation.
 */
public abstract class CredentialStoreContract {
    protected static final String KEY = "oauth:alpha";
    private static final int RACE_ROUNDS = 20;
    private static final Duration RACE_DEADLINE = Duration.ofSeconds(30);

    protected ManualClock clock;
    protected CredentialStore store;

    /** A fresh, empty store for one test, stamping writes with {@code clock}. */
    protected abstract CredentialStore createStore(Clock clock);

    /**
     * Another handle on the store {@link #createStore} made (its own connections to the same database);
     * implementations with a single handle return the first store, which is the default.
     */
    protected CredentialStore openPeer(Clock clock) {
        return store;
    }

    @BeforeEach
    void openStore() {
        clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
        store = createStore(clock);
    }

    @Test
    void anAbsentKeyLoadsNothing() {
        assertThat(store.load(KEY)).isEmpty();
        assertThat(store.keys()).isEmpty();
        assertThat(store.delete(KEY)).isFalse();
    }

    @Test
    void theFirstWriteExpectsVersionZeroAndMakesVersionOne() {
        assertThat(store.compareAndSet(KEY, 0, bytes("token-1"))).isEqualTo(1);

        StoredCredential stored = store.load(KEY).orElseThrow();
        assertThat(stored.key()).isEqualTo(KEY);
        assertThat(stored.version()).isEqualTo(1);
        assertThat(stored.sealed()).isEqualTo(bytes("token-1"));
        assertThat(stored.updatedAt()).isEqualTo(clock.now());
        assertThat(store.keys()).containsExactly(KEY);
    }

    @Test
    void aSecondFirstWriteLosesAndChangesNothing() {
        assertThat(store.compareAndSet(KEY, 0, bytes("first"))).isEqualTo(1);
        Instant written = clock.now();
        clock.advance(Duration.ofSeconds(5));

        assertThat(store.compareAndSet(KEY, 0, bytes("second"))).isZero();

        assertStored(KEY, 1, bytes("first"), written);
    }

    @Test
    void aStaleVersionReturnsZeroAndChangesNothing() {
        assertThat(store.compareAndSet(KEY, 0, bytes("v1"))).isEqualTo(1);
        assertThat(store.compareAndSet(KEY, 1, bytes("v2"))).isEqualTo(2);
        Instant written = clock.now();
        clock.advance(Duration.ofSeconds(5));

        assertThat(store.compareAndSet(KEY, 1, bytes("stale"))).as("a version already replaced").isZero();
        assertThat(store.compareAndSet(KEY, 3, bytes("ahead"))).as("a version never written").isZero();

        assertStored(KEY, 2, bytes("v2"), written);
    }

    @Test
    void aVersionOfAnAbsentKeyCreatesNothing() {
        assertThat(store.compareAndSet(KEY, 1, bytes("nothing to replace"))).isZero();

        assertThat(store.load(KEY)).isEmpty();
        assertThat(store.keys()).isEmpty();
    }

    @Test
    void versionsIncreaseByOnePerWriteAndEachWriteStampsTheClock() {
        long version = 0;
        for (int write = 1; write <= 5; write++) {
            clock.advance(Duration.ofMillis(1_250));
            version = store.compareAndSet(KEY, version, bytes("token-" + write));
            assertThat(version).isEqualTo(write);
            assertStored(KEY, write, bytes("token-" + write), clock.now());
        }
    }

    @Test
    void keysAreIndependent() {
        assertThat(store.compareAndSet("oauth:a", 0, bytes("a1"))).isEqualTo(1);
        assertThat(store.compareAndSet("oauth:a", 1, bytes("a2"))).isEqualTo(2);

        assertThat(store.compareAndSet("oauth:b", 0, bytes("b1"))).as("another key starts at 1").isEqualTo(1);
        assertThat(store.compareAndSet("oauth:b", 2, bytes("b?"))).as("a's version means nothing for b").isZero();

        assertThat(store.load("oauth:a").orElseThrow().sealed()).isEqualTo(bytes("a2"));
        assertThat(store.load("oauth:b").orElseThrow().sealed()).isEqualTo(bytes("b1"));
    }

    @Test
    void deleteRemovesOneKeyAndSaysWhetherThereWasOne() {
        store.compareAndSet("oauth:a", 0, bytes("a"));
        store.compareAndSet("oauth:b", 0, bytes("b"));
        store.compareAndSet("oauth:b", 1, bytes("b2"));

        assertThat(store.delete("oauth:b")).isTrue();

        assertThat(store.load("oauth:b")).isEmpty();
        assertThat(store.keys()).containsExactly("oauth:a");
        assertThat(store.delete("oauth:b")).as("already gone").isFalse();
        assertThat(store.compareAndSet("oauth:b", 2, bytes("b3"))).as("its old version is gone too").isZero();
        long again = store.compareAndSet("oauth:b", 0, bytes("again"));
        assertThat(again).as("written anew, past every version it had").isGreaterThan(2);
        assertStored("oauth:b", again, bytes("again"), clock.now());
        assertThat(store.compareAndSet("oauth:b", 0, bytes("twice"))).as("now it exists").isZero();
    }

    /**
     * A worker read the credential, then a logout deleted it and a new login wrote it more than once. The worker's
     * write from what it read must fail, however many writes the new login had: versions never repeat (no ABA).
     */
    @Test
    void aWriteFromBeforeADeleteNeverLandsOnALaterLogin() {
        assertThat(store.compareAndSet(KEY, 0, bytes("old-login"))).isEqualTo(1);
        assertThat(store.compareAndSet(KEY, 1, bytes("old-refresh"))).isEqualTo(2);
        long staleRead = store.load(KEY).orElseThrow().version();

        assertThat(store.delete(KEY)).isTrue();
        List<Long> versions = new ArrayList<>();
        long version = store.compareAndSet(KEY, 0, bytes("new-login"));
        for (int refresh = 0; refresh < 4; refresh++) {
            versions.add(version);
            version = store.compareAndSet(KEY, version, bytes("new-refresh-" + refresh));
        }
        versions.add(version);

        assertThat(versions).doesNotContain(0L, 1L, 2L).doesNotHaveDuplicates();
        assertThat(store.compareAndSet(KEY, staleRead, bytes("stale-refresh"))).isZero();
        assertThat(store.load(KEY).orElseThrow().sealed()).isEqualTo(bytes("new-refresh-3"));
        assertThat(store.keys()).containsExactly(KEY);
    }

    @Test
    void keysAreSortedInStringOrderNotTheDatabaseCollation() {
        // a locale collation would put "a" before "B" and "é" beside "e"; UTF-8 byte order would put U+FFFD before
        // the surrogate pair of U+1F600, which String order puts first
        List<String> keys = List.of("oauth:b", "é", "oauth:B", "\uFFFD", "_x", "\uD83D\uDE00", "oauth:a", "B", "a",
                "oauth:", "e", "z", "A1", "a1");
        for (String key : keys) {
            assertThat(store.compareAndSet(key, 0, bytes(key))).as(key).isEqualTo(1);
        }
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(null);

        assertThat(store.keys()).containsExactlyElementsOf(sorted);
        for (String key : keys) {
            assertThat(store.load(key).orElseThrow().sealed()).as(key).isEqualTo(bytes(key));
        }
    }

    @Test
    void bytesRoundTripExactly() {
        byte[] everyByte = new byte[512];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] large = new byte[64 * 1024];
        new Random(20261203L).nextBytes(large);
        // never empty: no sealed value is, and an empty one is refused (a store may mark deleted keys with it)
        List<byte[]> values = List.of(new byte[] {0}, new byte[16], everyByte, large, new byte[] {(byte) 0xff});

        long version = 0;
        for (byte[] value : values) {
            version = store.compareAndSet(KEY, version, value);
            assertThat(version).isPositive();
            byte[] read = store.load(KEY).orElseThrow().sealed();
            assertThat(read).as("%d bytes", value.length).hasSize(value.length).isEqualTo(value);
        }
    }

    @Test
    void theCallersArrayIsNotKept() {
        byte[] value = bytes("secret");
        store.compareAndSet(KEY, 0, value);
        value[0] = 'X';

        byte[] read = store.load(KEY).orElseThrow().sealed();
        assertThat(read).isEqualTo(bytes("secret"));
        read[0] = 'Y';
        assertThat(store.load(KEY).orElseThrow().sealed()).isEqualTo(bytes("secret"));
    }

    @Test
    void badArgumentsAreRefusedByName() {
        assertThatThrownBy(() -> store.compareAndSet(null, 0, bytes("x"))).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> store.compareAndSet(KEY, 0, null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("sealed");
        assertThatThrownBy(() -> store.compareAndSet(KEY, -1, bytes("x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expectedVersion")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> store.compareAndSet(KEY, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sealed must not be empty");
        assertThatThrownBy(() -> store.load(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> store.delete(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("key");
        assertThat(store.keys()).as("nothing was written").isEmpty();
    }

    /**
     * Two writers start from the same version at once, on two handles when the store has them: exactly one wins,
     * and the stored value is the winner's. Both the first write (version 0, an insert) and a replacement race.
     */
    @Test
    void twoWritersRacingFromTheSameVersionHaveExactlyOneWinner() throws Exception {
        CredentialStore peer = openPeer(clock);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < RACE_ROUNDS; round++) {
                String key = "oauth:race-" + round;
                race(threads, peer, key, 0, round);
                race(threads, peer, key, 1, round);
            }
        } finally {
            threads.shutdownNow();
            assertThat(threads.awaitTermination(RACE_DEADLINE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        }
    }

    private void race(ExecutorService threads, CredentialStore peer, String key, long from, int round)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        byte[] mine = bytes("mine-" + round + "-" + from);
        byte[] theirs = bytes("theirs-" + round + "-" + from);
        Future<Long> first = threads.submit(() -> {
            start.await(RACE_DEADLINE.toSeconds(), TimeUnit.SECONDS);
            return store.compareAndSet(key, from, mine);
        });
        Future<Long> second = threads.submit(() -> {
            start.await(RACE_DEADLINE.toSeconds(), TimeUnit.SECONDS);
            return peer.compareAndSet(key, from, theirs);
        });
        long firstVersion = first.get(RACE_DEADLINE.toSeconds(), TimeUnit.SECONDS);
        long secondVersion = second.get(RACE_DEADLINE.toSeconds(), TimeUnit.SECONDS);

        assertThat(List.of(firstVersion, secondVersion)).as("round %d from version %d", round, from)
                .containsExactlyInAnyOrder(from + 1, 0L);
        StoredCredential stored = store.load(key).orElseThrow();
        assertThat(stored.version()).isEqualTo(from + 1);
        assertThat(stored.sealed()).as("the winner's value").isEqualTo(firstVersion > 0 ? mine : theirs);
    }

    private void assertStored(String key, long version, byte[] sealed, Instant updatedAt) {
        StoredCredential stored = store.load(key).orElseThrow(() -> new AssertionError(key + " is missing"));
        assertThat(stored.version()).as("version of %s", key).isEqualTo(version);
        assertThat(stored.sealed()).as("value of %s", key).isEqualTo(sealed);
        assertThat(stored.updatedAt()).as("updatedAt of %s", key).isEqualTo(updatedAt);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
