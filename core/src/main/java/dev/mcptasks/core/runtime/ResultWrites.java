package dev.mcptasks.core.runtime;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The result writes of the worker's claims (a submit's or an outcome's last write), made for the notify phase that
 * owns delivery ({@link NotificationDispatcher#resultWrites}): a write that may take its event's delivery keeps its
 * take only with a delivery slot reserved for it, and once the write committed the delivery is handed over in that
 * slot; a refused or failed write gives the slot back. A write applied with its take took the delivery: the worker
 * offers a take only where nothing else can change the outbox meanwhile (see {@link DeliveryTake}). The store behind
 * is persistence only: it never starts a delivery.
 */
final class ResultWrites {
    private final TaskClaims claims;
    private final DeliveryHandover handover;

    ResultWrites(TaskClaims claims, DeliveryHandover handover) {
        this.claims = Objects.requireNonNull(claims, "claims");
        this.handover = Objects.requireNonNull(handover, "handover");
    }

    /** {@link TaskClaims#applySubmitted}, taking the event's delivery where a slot is free. */
    boolean applySubmitted(Claim claim, SubmitWrite write) {
        return taking(claim, write, write.take(), write.event(), SubmitWrite::withTake,
                sent -> claims.applySubmitted(claim, sent));
    }

    /** {@link TaskClaims#applyOutcome}, taking the event's delivery where a slot is free. */
    boolean applyOutcome(Claim claim, OutcomeWrite write) {
        return taking(claim, write, write.take(), write.event(), OutcomeWrite::withTake,
                sent -> claims.applyOutcome(claim, sent));
    }

    private <W> boolean taking(Claim claim, W write, DeliveryTake take, AttentionEvent event,
            BiFunction<W, DeliveryTake, W> withTake, Predicate<W> run) {
        boolean kept = take != null && handover.reserveSlot();
        W sent = take != null && !kept ? withTake.apply(write, null) : write;
        boolean applied;
        try {
            applied = run.test(sent);
        } catch (RuntimeException | Error e) {
            if (kept) {
                handover.releaseSlot();
            }
            throw e;
        }
        if (kept) {
            if (applied) {
                handover.handOver(claim.taskId(), take, event);
            } else {
                handover.releaseSlot();
            }
        }
        return applied;
    }
}
