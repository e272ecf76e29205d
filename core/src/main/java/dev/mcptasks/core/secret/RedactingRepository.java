package dev.mcptasks.core.secret;

import dev.mcptasks.domain.AttentionEvent;
import dev.mcptasks.domain.Claim;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.ports.repository.ClaimedWrite;
import dev.mcptasks.ports.repository.ComposedTaskRepository;
import dev.mcptasks.ports.repository.FailureWrite;
import dev.mcptasks.ports.repository.ForwardingNotificationOutbox;
import dev.mcptasks.ports.repository.NotificationClaim;
import dev.mcptasks.ports.repository.NotificationOutbox;
import dev.mcptasks.ports.repository.OutcomeWrite;
import dev.mcptasks.ports.repository.ResultWatchingClaims;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskClaims;
import dev.mcptasks.ports.repository.TaskRepository;
import dev.mcptasks.ports.secret.SecretRedactor;
import java.time.Instant;
import java.util.List;

/**
 * The worker's writes with every known secret removed from the text they store: results, errors, status messages,
 * input requests, the events delivered to sinks, and delivery errors. Whatever an upstream echoed (a configured
 * {@code Authorization} header in an error body, a token in a result), the store, {@code show}, the gateway's
 * answers and webhook payloads never hold it. Only the claims and the outbox are wrapped.
 */
public final class RedactingRepository implements ComposedTaskRepository {
    private final Roles roles;

    public RedactingRepository(TaskRepository delegate, SecretRedactor secrets) {
        this.roles = ComposedTaskRepository.of(delegate)
                .withClaims(claims -> new RedactingClaims(claims, secrets))
                .withOutbox(outbox -> new RedactingOutbox(outbox, secrets));
    }

    @Override
    public Roles roles() {
        return roles;
    }

    /** Results, errors, status messages and input requests written for a claim, redacted. */
    private static final class RedactingClaims implements ResultWatchingClaims {
        private final TaskClaims delegate;
        private final SecretRedactor secrets;

        RedactingClaims(TaskClaims delegate, SecretRedactor secrets) {
            this.delegate = delegate;
            this.secrets = secrets;
        }

        @Override
        public TaskClaims delegate() {
            return delegate;
        }

        @Override
        public boolean applySubmitted(Claim claim, SubmitWrite write) {
            return delegate().applySubmitted(claim, redacted(write));
        }

        @Override
        public boolean applyOutcome(Claim claim, OutcomeWrite write) {
            return delegate().applyOutcome(claim, redacted(write));
        }

        @Override
        public List<Boolean> applySubmittedAll(List<ClaimedWrite<SubmitWrite>> writes) {
            return delegate().applySubmittedAll(writes.stream()
                    .map(write -> new ClaimedWrite<>(write.claim(), redacted(write.write()))).toList());
        }

        @Override
        public List<Boolean> applyOutcomes(List<ClaimedWrite<OutcomeWrite>> writes) {
            return delegate().applyOutcomes(writes.stream()
                    .map(write -> new ClaimedWrite<>(write.claim(), redacted(write.write()))).toList());
        }

        @Override
        public boolean recordProgress(Claim claim, String statusMessage) {
            return delegate().recordProgress(claim, secrets.redact(statusMessage));
        }

        @Override
        public boolean releaseAfterFailure(Claim claim, FailureWrite write) {
            return delegate().releaseAfterFailure(claim, new FailureWrite(secrets.redact(write.error()),
                    write.failedAt(), write.nextControlAt(), write.clearSubmitAttempt(),
                    redacted(write.degradedEvent())));
        }

        @Override
        public boolean abandonCancel(Claim claim, String reason, Instant nextControlAt) {
            return delegate().abandonCancel(claim, secrets.redact(reason), nextControlAt);
        }

        private SubmitWrite redacted(SubmitWrite write) {
            return new SubmitWrite(write.remoteTaskId(), redacted(write.snapshot()), write.remoteTtlMs(),
                    write.protocolVersion(), write.endpointOwner(), write.nextControlAt(), redacted(write.event()),
                    write.requestState(), write.endpointSession(), write.take());
        }

        private OutcomeWrite redacted(OutcomeWrite write) {
            return new OutcomeWrite(redacted(write.snapshot()), write.remoteTtlMs(), write.nextControlAt(),
                    redacted(write.event()), write.deliveredInputResponsesJson(), write.take());
        }

        private StoredSnapshot redacted(StoredSnapshot snapshot) {
            return new StoredSnapshot(snapshot.status(), secrets.redact(snapshot.statusMessage()),
                    secrets.redact(snapshot.resultJson()), snapshot.resultTruncated(), secrets.redact(snapshot.error()),
                    snapshot.errorCode(), secrets.redact(snapshot.inputRequiredJson()));
        }

        /** The event's payload redacted; its fingerprint (what deduplicates deliveries) is kept as computed. */
        private AttentionEvent redacted(AttentionEvent event) {
            return event == null ? null : new AttentionEvent(secrets.redact(event.payloadJson()), event.fingerprint());
        }
    }

    /** Delivery errors, redacted. */
    private static final class RedactingOutbox implements ForwardingNotificationOutbox {
        private final NotificationOutbox delegate;
        private final SecretRedactor secrets;

        RedactingOutbox(NotificationOutbox delegate, SecretRedactor secrets) {
            this.delegate = delegate;
            this.secrets = secrets;
        }

        @Override
        public NotificationOutbox delegate() {
            return delegate;
        }

        // the batched writes carry no text to redact: they reach the store as batches, one statement where it can
        @Override
        public List<Boolean> markAllDispatched(List<NotificationClaim> claims) {
            return delegate().markAllDispatched(claims);
        }

        @Override
        public List<Boolean> finishNotifications(List<NotificationClaim> claims) {
            return delegate().finishNotifications(claims);
        }

        @Override
        public boolean retryNotification(NotificationClaim claim, String error, Instant nextAt, boolean counted) {
            return delegate().retryNotification(claim, secrets.redact(error), nextAt, counted);
        }

        @Override
        public boolean deadLetterNotification(NotificationClaim claim, String error) {
            return delegate().deadLetterNotification(claim, secrets.redact(error));
        }
    }
}
