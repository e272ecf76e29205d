package dev.mcptasks.ports.repository;

import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.WorkerId;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * One event of the {@link TaskHistory} of task {@code taskId}: a claim by {@code worker} in {@code phase} at the
 * store's {@code at}; for a takeover, the owner and phase of the expired lease it took ({@code previousOwner} and
 * {@code previousPhase}, null for a claim of a free lease).
 */
public record TaskEvent(TaskId taskId, Instant at, Kind kind, ClaimPhase phase, WorkerId worker,
        WorkerId previousOwner, ClaimPhase previousPhase) {

    /** What happened. */
    public enum Kind {
        /** A claim of a free lease. */
        CLAIMED,
        /** A claim of a lease that had expired in another claim's hands (its worker died or stalled). */
        TAKEN_OVER;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromWire(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    public TaskEvent {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(worker, "worker");
        if ((kind == Kind.TAKEN_OVER) != (previousOwner != null)) {
            throw new IllegalArgumentException("a takeover, and only a takeover, names the previous owner");
        }
    }

    /** The event of a claim just made: a takeover when it took an expired lease ({@link ClaimedTask#recovered}). */
    public static TaskEvent of(Instant at, ClaimedTask claimed, WorkerId previousOwner) {
        Claim claim = claimed.claim();
        return claimed.recovered()
                ? new TaskEvent(claim.taskId(), at, Kind.TAKEN_OVER, claim.phase(), claim.owner(), previousOwner,
                        claimed.expiredPhase())
                : new TaskEvent(claim.taskId(), at, Kind.CLAIMED, claim.phase(), claim.owner(), null, null);
    }

    /** Whether a claim is recorded: submit and cancel claims always, a poll claim only when it takes over. */
    public static boolean recorded(ClaimPhase phase, boolean takeover) {
        return phase != ClaimPhase.POLL || takeover;
    }
}
