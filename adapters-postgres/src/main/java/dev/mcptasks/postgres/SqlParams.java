package dev.mcptasks.postgres;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.NotificationClaim;
import java.time.Instant;

/** The flat parameter records the mapper statements read (wire names instead of enums, instants at millis). */
final class SqlParams {
    private SqlParams() {}

    /**
     * The WHERE of a control fence: id, owner, token and phase always; {@code live} adds an unexpired lease and a
     * nonterminal row; the two flags add the status and cancel predicates of particular writes
     * ({@code awaitsSubmit}: still to be created, i.e. pending or an input round before any task).
     */
    record Fence(String id, String phase, String owner, String token, Instant now, boolean live,
            boolean awaitsSubmit, boolean requireNoCancel) {

        static Fence release(Claim claim, Instant now) {
            return new Fence(claim.taskId().value(), claim.phase().wireName(), claim.owner().value(),
                    claim.token().value(), now, false, false, false);
        }

        static Fence live(Claim claim, Instant now, boolean awaitsSubmit, boolean requireNoCancel) {
            return new Fence(claim.taskId().value(), claim.phase().wireName(), claim.owner().value(),
                    claim.token().value(), now, true, awaitsSubmit, requireNoCancel);
        }

        boolean cancelPhase() {
            return ClaimPhase.CANCEL.wireName().equals(phase);
        }

        boolean pollPhase() {
            return ClaimPhase.POLL.wireName().equals(phase);
        }
    }

    /** A notification-lease fence. */
    record OutboxFence(String id, String owner, String token, Instant now) {
        static OutboxFence of(NotificationClaim claim, Instant now) {
            return new OutboxFence(claim.taskId().value(), claim.owner().value(), claim.token().value(), now);
        }
    }

    /** Snapshot columns; {@code completedAt} is the write time for a terminal status, else null. */
    record Snapshot(String status, String statusMessage, String result, boolean resultTruncated, String error,
            String errorCode, String inputRequired, Instant completedAt) {

        static Snapshot of(StoredSnapshot snapshot, Instant now) {
            TaskStatus status = snapshot.status();
            return new Snapshot(status.wireName(), snapshot.statusMessage(), snapshot.resultJson(),
                    snapshot.resultTruncated(), snapshot.error(), snapshot.errorCode(), snapshot.inputRequiredJson(),
                    status.isTerminal() ? now : null);
        }
    }

    /** An attention event to record when its fingerprint differs from the stored one. */
    record Event(String payload, String fingerprint) {
        static Event of(AttentionEvent event) {
            return event == null ? null : new Event(event.payloadJson(), event.fingerprint());
        }
    }
}
