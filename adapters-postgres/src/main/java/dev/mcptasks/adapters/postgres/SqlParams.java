package dev.mcptasks.adapters.postgres;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.ports.repository.DeliveryTake;
import dev.mcptasks.ports.repository.NotificationClaim;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

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

    /**
     * An attention event to record when its fingerprint differs from the stored one, and the delivery of it the write
     * takes ({@link DeliveryTake}; {@code takeOwner} null: none), leased until {@code takeExpiresAt}.
     */
    record Event(String payload, String fingerprint, String takeOwner, String takeToken, Instant takeExpiresAt,
            Long takePriorVersion) {
        static Event of(AttentionEvent event) {
            return of(event, null, null);
        }

        static Event of(AttentionEvent event, DeliveryTake take, Instant now) {
            if (event == null) {
                return null;
            }
            return take == null ? new Event(event.payloadJson(), event.fingerprint(), null, null, null, null)
                    : new Event(event.payloadJson(), event.fingerprint(), take.owner().value(), take.token().value(),
                            Times.millis(now.plus(take.lease())), take.priorEventVersion());
        }
    }

    // ---- Batched writes: one text array per column, one entry per element (the statement casts each array to its
    // column type, so nulls, numbers, booleans and instants all travel as text; instants as ISO-8601 UTC at millis).

    /** The fences of a control batch, in element order: each element's {@link Fence}, as its single write binds it. */
    record Claims(String[] ids, String[] owners, String[] tokens, String[] phases, String[] live,
            String[] awaitsSubmit, String[] requireNoCancel) {
        static Claims of(List<Fence> fences) {
            return new Claims(column(fences, Fence::id), column(fences, Fence::owner), column(fences, Fence::token),
                    column(fences, Fence::phase), column(fences, fence -> Boolean.toString(fence.live())),
                    column(fences, fence -> Boolean.toString(fence.awaitsSubmit())),
                    column(fences, fence -> Boolean.toString(fence.requireNoCancel())));
        }
    }

    /** The delivery claims of an outbox batch, in element order. */
    record Deliveries(String[] ids, String[] owners, String[] tokens) {
        static Deliveries of(List<NotificationClaim> claims) {
            return new Deliveries(column(claims, claim -> claim.taskId().value()),
                    column(claims, claim -> claim.owner().value()), column(claims, claim -> claim.token().value()));
        }
    }

    /** {@link Snapshot} per element. */
    record Snapshots(String[] statuses, String[] statusMessages, String[] results, String[] resultTruncated,
            String[] errors, String[] errorCodes, String[] inputRequired, String[] completedAts) {
        static Snapshots of(List<Snapshot> snapshots) {
            return new Snapshots(column(snapshots, Snapshot::status), column(snapshots, Snapshot::statusMessage),
                    column(snapshots, Snapshot::result),
                    column(snapshots, snapshot -> Boolean.toString(snapshot.resultTruncated())),
                    column(snapshots, Snapshot::error), column(snapshots, Snapshot::errorCode),
                    column(snapshots, Snapshot::inputRequired),
                    column(snapshots, snapshot -> instant(snapshot.completedAt())));
        }
    }

    /** {@link Event} per element (all null when the element carries no event). */
    record Events(String[] fingerprints, String[] payloads, String[] takeOwners, String[] takeTokens,
            String[] takeExpiresAts, String[] takePriorVersions) {
        static Events of(List<Event> events) {
            return new Events(column(events, event -> event == null ? null : event.fingerprint()),
                    column(events, event -> event == null ? null : event.payload()),
                    column(events, event -> event == null ? null : event.takeOwner()),
                    column(events, event -> event == null ? null : event.takeToken()),
                    column(events, event -> event == null ? null : instant(event.takeExpiresAt())),
                    column(events, event -> event == null ? null : number(event.takePriorVersion())));
        }
    }

    /** The columns of an {@code applySubmittedAll} beyond claim, snapshot and event. */
    record Submits(String[] remoteTaskIds, String[] remoteTtlMs, String[] protocolVersions, String[] endpointOwners,
            String[] endpointSessions, String[] requestStates, String[] inputRounds, String[] nextControlAts) {}

    /** The columns of an {@code applyOutcomes} beyond claim, snapshot and event. */
    record Outcomes(String[] remoteTtlMs, String[] delivered, String[] nextControlAts) {}

    static <T> String[] column(List<T> elements, Function<T, String> value) {
        String[] column = new String[elements.size()];
        for (int i = 0; i < column.length; i++) {
            column[i] = value.apply(elements.get(i));
        }
        return column;
    }

    /** An instant as the text PostgreSQL reads back as the same timestamptz (millisecond precision, UTC). */
    static String instant(Instant instant) {
        return instant == null ? null : Times.millis(instant).toString();
    }

    static String number(Long value) {
        return value == null ? null : value.toString();
    }
}
