package dev.mcptasks.chaos;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks the audit of accepted writes against the sequence of claims, per task:
 * <ul>
 *   <li>a claim over an unreleased lease happens only once that lease expired ({@code claim_over_live_lease});</li>
 *   <li>a write under a claim carries the latest claim's token ({@code write_under_unknown_claim}) and keeps its
 *       owner ({@code owner_changed_without_claim});</li>
 *   <li>a terminal write under a claim happens before the claim expired ({@code terminal_write_after_expiry});</li>
 *   <li>where the database names the writing connection (PostgreSQL {@code application_name} = the worker's tag), a
 *       claim is written by its new owner and every later write under it by that owner: a superseded worker's
 *       accepted write is {@code superseded_write}.</li>
 * </ul>
 * Clock slack covers the gap between the worker's "now" (used in the fence) and the trigger's clock.
 */
public final class AuditChecks {
    private static final Set<String> TERMINAL = Set.of("completed", "failed", "cancelled");

    private AuditChecks() {}

    /**
     * @param userWriters connection names of the user side (the harness's submits and cancels), which may write
     *     without a claim (a cancel request clears a poll lease)
     */
    public static CheckResult check(List<AuditEntry> entries, Set<String> userWriters, long slackMs) {
        CheckResult.Builder result = new CheckResult.Builder();
        result.zero("claims");
        result.zero("takeovers of expired leases");
        Map<String, String> latestToken = new HashMap<>();
        for (AuditEntry entry : entries.stream().sorted(Comparator.comparingLong(AuditEntry::seq)).toList()) {
            boolean byUser = entry.writer() != null && userWriters.contains(entry.writer());
            if (entry.isClaim()) {
                checkClaim(entry, slackMs, result);
                latestToken.put(entry.taskId(), entry.newToken());
                continue;
            }
            if (entry.oldToken() == null || !entry.controlChanged() || byUser) {
                continue;
            }
            checkWriteUnderClaim(entry, latestToken.get(entry.taskId()), slackMs, result);
        }
        return result.build();
    }

    private static void checkClaim(AuditEntry entry, long slackMs, CheckResult.Builder result) {
        result.count("claims");
        if (entry.oldToken() != null) {
            result.count("takeovers of expired leases");
            if (entry.oldExpiresMs() != null && entry.atMs() + slackMs < entry.oldExpiresMs()) {
                result.violation("claim_over_live_lease", entry.taskId(), entry.newOwner() + " claimed at "
                        + entry.atMs() + " over " + entry.oldOwner() + "'s lease, valid until "
                        + entry.oldExpiresMs());
            }
        }
        if (entry.writer() != null && !writtenBy(entry.writer(), entry.newOwner())) {
            result.violation("superseded_write", entry.taskId(), "claim for " + entry.newOwner() + " written by "
                    + entry.writer());
        }
    }

    private static void checkWriteUnderClaim(AuditEntry entry, String latest, long slackMs,
            CheckResult.Builder result) {
        if (!entry.oldToken().equals(latest)) {
            result.violation("write_under_unknown_claim", entry.taskId(), "write #" + entry.seq() + " under token "
                    + entry.oldToken() + " but the latest claim was " + latest);
        }
        if (entry.newToken() != null && !Objects.equals(entry.oldOwner(), entry.newOwner())) {
            result.violation("owner_changed_without_claim", entry.taskId(), "write #" + entry.seq() + " moved the"
                    + " claim from " + entry.oldOwner() + " to " + entry.newOwner() + " under the same token");
        }
        if (entry.writer() != null && !writtenBy(entry.writer(), entry.oldOwner())) {
            result.violation("superseded_write", entry.taskId(), "write #" + entry.seq() + " (" + entry.oldStatus()
                    + " -> " + entry.newStatus() + ") accepted from " + entry.writer() + " while the claim was "
                    + entry.oldOwner() + "'s");
        }
        boolean terminalWrite = TERMINAL.contains(entry.newStatus()) && !entry.newStatus().equals(entry.oldStatus());
        if (terminalWrite && entry.oldExpiresMs() != null && entry.atMs() > entry.oldExpiresMs() + slackMs) {
            result.violation("terminal_write_after_expiry", entry.taskId(), "write #" + entry.seq() + " made the task "
                    + entry.newStatus() + " at " + entry.atMs() + " under " + entry.oldOwner()
                    + "'s claim, expired at " + entry.oldExpiresMs());
        }
    }

    /**
     * Whether the connection named {@code writer} (the serve process's tag, e.g. {@code w3.1}) belongs to the worker
     * {@code owner}: {@code serve --worker-id w3.1} runs as {@code w3.1:host:pid:random}, one id per start, and the
     * harness gives every start its own tag, so the tag followed by a colon names exactly one worker.
     */
    static boolean writtenBy(String writer, String owner) {
        return owner != null && (owner.equals(writer) || owner.startsWith(writer + ":"));
    }
}
