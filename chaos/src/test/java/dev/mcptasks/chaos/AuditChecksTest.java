package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The audit checks find writes from superseded, unknown or expired claims, and accept a clean claim sequence. */
class AuditChecksTest {
    private static final Set<String> USER = Set.of("harness");

    /** A claim by {@code owner} (token {@code token}) at {@code at}, over {@code old}'s lease if not null. */
    private static AuditEntry claim(long seq, long at, String writer, String oldOwner, String oldToken,
            Long oldExpires, String owner, String token) {
        return new AuditEntry(seq, "t1", at, writer, "working", "working", oldOwner, owner, oldToken, token,
                oldToken == null ? null : "poll", "poll", oldExpires, at + 5_000, true);
    }

    private static AuditEntry write(long seq, long at, String writer, String owner, String token, long expires,
            String newStatus, boolean release) {
        return new AuditEntry(seq, "t1", at, writer, "working", newStatus, owner, release ? null : owner, token,
                release ? null : token, "poll", release ? null : "poll", expires, release ? null : expires, true);
    }

    private static List<String> kinds(CheckResult result) {
        return result.violations().stream().map(Violation::kind).toList();
    }

    @Test
    void aCleanSequenceWithATakeoverHasNoViolation() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, "w1.1", null, null, null, "w1.1", "a"),
                write(2, 2_000, "w1.1", "w1.1", "a", 6_000, "working", false),
                claim(3, 9_000, "w2.1", "w1.1", "a", 6_000L, "w2.1", "b"),
                write(4, 9_500, "w2.1", "w2.1", "b", 14_000, "completed", true));

        CheckResult result = AuditChecks.check(audit, USER, 1_000);

        assertThat(result.violations()).isEmpty();
        assertThat(result.figures()).containsEntry("claims", 2).containsEntry("takeovers of expired leases", 1);
    }

    @Test
    void aWriteAcceptedFromTheSupersededOwnerIsReported() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, "w1.1", null, null, null, "w1.1", "a"),
                claim(2, 9_000, "w2.1", "w1.1", "a", 6_000L, "w2.1", "b"),
                write(3, 9_500, "w1.1", "w2.1", "b", 14_000, "completed", true));

        assertThat(kinds(AuditChecks.check(audit, USER, 1_000))).containsExactly("superseded_write");
    }

    @Test
    void aWorkerIdIsItsTagFollowedByThisStartsSuffix() {
        List<AuditEntry> clean = List.of(
                claim(1, 1_000, "w1.1", null, null, null, "w1.1:vm:100:ab12", "a"),
                write(2, 2_000, "w1.1", "w1.1:vm:100:ab12", "a", 6_000, "completed", true));
        List<AuditEntry> superseded = List.of(
                claim(1, 1_000, "w1.1", null, null, null, "w1.1:vm:100:ab12", "a"),
                claim(2, 9_000, "w1.10", "w1.1:vm:100:ab12", "a", 6_000L, "w1.10:vm:200:cd34", "b"),
                write(3, 9_500, "w1.1", "w1.10:vm:200:cd34", "b", 14_000, "completed", true));

        assertThat(kinds(AuditChecks.check(clean, USER, 1_000))).isEmpty();
        assertThat(kinds(AuditChecks.check(superseded, USER, 1_000))).containsExactly("superseded_write");
    }

    @Test
    void aClaimOverALiveLeaseIsReported() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, null, null, null, null, "w1.1", "a"),
                claim(2, 3_000, null, "w1.1", "a", 6_000L, "w2.1", "b"));

        assertThat(kinds(AuditChecks.check(audit, USER, 1_000))).containsExactly("claim_over_live_lease");
    }

    @Test
    void aTerminalWriteUnderAnExpiredClaimIsReportedWithoutWriterNames() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, null, null, null, null, "w1.1", "a"),
                write(2, 9_000, null, "w1.1", "a", 6_000, "completed", true));

        assertThat(kinds(AuditChecks.check(audit, USER, 1_000))).containsExactly("terminal_write_after_expiry");
    }

    @Test
    void aWriteUnderATokenThatWasNeverTheLatestClaimIsReported() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, null, null, null, null, "w1.1", "a"),
                write(2, 2_000, null, "w1.1", "zzz", 6_000, "working", false));

        assertThat(kinds(AuditChecks.check(audit, USER, 1_000))).containsExactly("write_under_unknown_claim");
    }

    @Test
    void theUsersCancelRequestMayClearAPollLease() {
        List<AuditEntry> audit = List.of(
                claim(1, 1_000, "w1.1", null, null, null, "w1.1", "a"),
                write(2, 2_000, "harness", "w1.1", "a", 6_000, "working", true));

        assertThat(AuditChecks.check(audit, USER, 1_000).violations()).isEmpty();
    }
}
