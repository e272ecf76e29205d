package dev.mcptasks.adapters.postgres;

import java.time.Instant;

/** One {@code tasks} row as MyBatis fills it (column names in camel case); converted at once by {@link TaskRows}. */
final class TaskRow {
    String id;
    String serverName;
    String toolName;
    String arguments;
    String driver;
    Long requestedTtlMs;
    Instant createdAt;
    String principal;
    String traceparent;
    String tracestate;

    String status;
    String statusMessage;
    String result;
    boolean resultTruncated;
    String error;
    String errorCode;
    String inputRequired;
    String remoteTaskId;
    Long remoteTtlMs;
    String protocolVersion;
    String endpointOwner;
    String createdBy;
    Instant updatedAt;
    Instant completedAt;
    String inputResponses;
    String requestState;
    String endpointSession;

    Instant nextControlAt;
    Instant lastPolledAt;
    int submitAttemptCount;
    int pollAttemptCount;
    int cancelAttemptCount;
    int consecutiveErrorCount;
    String lastPollError;
    String lastCancelError;
    Instant cancelRequestedAt;
    Instant submitAttemptedAt;

    /** Only set by claim scans: the phase of the expired claim of another generation the row still carried. */
    String expiredPhase;

    String leasePhase;
    String leaseOwner;
    String leaseToken;
    Instant leaseExpiresAt;

    String notificationStatus;
    String eventFingerprint;
    String eventPayload;
    long eventVersion;
    long notifiedVersion;
    long dispatchVersion;
    int dispatchAttempt;
    String dispatchEvent;
    int notificationAttemptCount;
    String notificationError;
    Instant nextNotificationAt;
    String notificationLeaseOwner;
    String notificationLeaseToken;
    Instant notificationLeaseExpiresAt;
}
