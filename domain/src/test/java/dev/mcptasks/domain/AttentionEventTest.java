package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AttentionEventTest {
    private static final TaskId ID = TaskId.of("t1");

    @Test
    void onlyAttentionStatusesRaiseAnEvent() {
        assertThat(AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.WORKING, null))).isEmpty();
        assertThat(AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.INPUT_REQUIRED, null))).isPresent();
        assertThat(AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.COMPLETED, "{}"))).isPresent();
    }

    @Test
    void theSameStateHasTheSameFingerprint() {
        AttentionEvent a = AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.COMPLETED, "{\"a\":1}")).orElseThrow();
        AttentionEvent b = AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.COMPLETED, "{\"a\":1}")).orElseThrow();
        assertThat(a).isEqualTo(b);
        assertThat(a.fingerprint()).hasSize(64).isEqualTo(AttentionEvent.sha256(a.payloadJson()));
    }

    @Test
    void aDifferentResultOrStatusChangesTheFingerprint() {
        String base = AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.COMPLETED, "{\"a\":1}")).orElseThrow().fingerprint();
        assertThat(AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.COMPLETED, "{\"a\":2}")).orElseThrow().fingerprint())
                .isNotEqualTo(base);
        assertThat(AttentionEvent.forSnapshot(ID, "s", "tool", snapshot(TaskStatus.FAILED, "{\"a\":1}")).orElseThrow().fingerprint())
                .isNotEqualTo(base);
    }

    @Test
    void payloadIsCanonicalJsonWithoutTheWholeResult() {
        AttentionEvent event = AttentionEvent.forSnapshot(ID, "srv", "tool", snapshot(TaskStatus.COMPLETED, "{\"big\":\"secret-ish\"}")).orElseThrow();
        assertThat(StrictJson.canonicalize(event.payloadJson())).isEqualTo(event.payloadJson());
        assertThat(event.payloadJson()).contains("\"status\":\"completed\"").contains("\"taskId\":\"t1\"")
                .doesNotContain("secret-ish");
    }

    @Test
    void trackingDegradedIsOncePerEpisode() {
        AttentionEvent first = AttentionEvent.trackingDegraded(ID, "s", TaskStatus.WORKING, "2026-01-01T00:00:00Z", "timeout");
        AttentionEvent again = AttentionEvent.trackingDegraded(ID, "s", TaskStatus.WORKING, "2026-01-01T00:00:00Z", "timeout");
        AttentionEvent next = AttentionEvent.trackingDegraded(ID, "s", TaskStatus.WORKING, "2026-01-01T01:00:00Z", "timeout");
        assertThat(again.fingerprint()).isEqualTo(first.fingerprint());
        assertThat(next.fingerprint()).isNotEqualTo(first.fingerprint());
    }

    private static StoredSnapshot snapshot(TaskStatus status, String result) {
        return new StoredSnapshot(status, null, result, false, null, null, null);
    }
}
