package dev.mcptasks.adapters.postgres;

import dev.mcptasks.ports.Clock;
import dev.mcptasks.ports.IdGenerator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Millisecond instants from the injected clock, and batches of fresh claim tokens. */
final class Times {
    private Times() {}

    /** "Now" for a statement: the injected clock, at the millisecond precision the store keeps. */
    static Instant now(Clock clock) {
        return clock.now().truncatedTo(ChronoUnit.MILLIS);
    }

    static Instant millis(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * One fresh token per row a scan may take; the statement pairs them with the rows it locks, in due order, and
     * the unused ones are discarded (a token only has to be fresh).
     */
    static String[] tokens(IdGenerator ids, int count) {
        String[] tokens = new String[count];
        for (int i = 0; i < count; i++) {
            tokens[i] = ids.newClaimToken().value();
        }
        return tokens;
    }
}
