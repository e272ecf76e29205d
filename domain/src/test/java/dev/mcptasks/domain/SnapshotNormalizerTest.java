package dev.mcptasks.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotNormalizerTest {
    private final SnapshotNormalizer normalizer = new SnapshotNormalizer(2048);

    @Test
    void keepsASmallValidResultWhole() {
        StoredSnapshot stored = normalizer.normalize(RemoteTaskSnapshot.of("r1", TaskStatus.COMPLETED)
                .withResult("{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}"));
        assertThat(stored.resultJson()).isEqualTo("{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}");
        assertThat(stored.resultTruncated()).isFalse();
        assertThat(stored.status()).isEqualTo(TaskStatus.COMPLETED);
    }

    @Test
    void replacesAnOversizedResultWithAValidPreviewEnvelope() {
        String big = "{\"text\":\"" + "x".repeat(5000) + "\"}";
        StoredSnapshot stored = normalizer.normalize(RemoteTaskSnapshot.of("r1", TaskStatus.COMPLETED).withResult(big));
        assertThat(stored.resultTruncated()).isTrue();
        assertThat(StrictJson.isValid(stored.resultJson())).isTrue();
        Map<?, ?> envelope = (Map<?, ?>) StrictJson.parse(stored.resultJson());
        assertThat(envelope.get("truncated")).isEqualTo(true);
        assertThat(envelope.get("originalBytes")).isEqualTo(new StrictJson.JsonNumber(String.valueOf(big.length())));
        assertThat((String) envelope.get("preview")).hasSize(SnapshotNormalizer.PREVIEW_CHARS).startsWith("{\"text\":\"xx");
    }

    @Test
    void countsResultSizeInUtf8Bytes() {
        String accents = "{\"t\":\"" + "\u00e9".repeat(1100) + "\"}"; // 1,109 chars, 2,209 bytes
        assertThat(normalizer.normalize(RemoteTaskSnapshot.of("r", TaskStatus.COMPLETED).withResult(accents))
                .resultTruncated()).isTrue();
    }

    @Test
    void aResultThatIsNotStrictJsonIsAProtocolError() {
        StoredSnapshot stored = normalizer.normalize(RemoteTaskSnapshot.of("r1", TaskStatus.COMPLETED)
                .withResult("{\"value\": NaN}"));
        assertThat(stored.status()).isEqualTo(TaskStatus.FAILED);
        assertThat(stored.errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
        assertThat(stored.resultJson()).isNull();
    }

    @Test
    void anInputRequestThatIsNotJsonIsAProtocolError() {
        RemoteTaskSnapshot remote = new RemoteTaskSnapshot("r", TaskStatus.INPUT_REQUIRED, null, null, null, null,
                null, "{broken", null);
        assertThat(normalizer.normalize(remote).errorCode()).isEqualTo(ErrorCodes.PROTOCOL_ERROR);
    }

    @Test
    void capsErrorsAndMessages() {
        String longText = "e".repeat(10_000);
        StoredSnapshot stored = normalizer.normalize(RemoteTaskSnapshot.of("r1", TaskStatus.FAILED)
                .withStatusMessage(longText).withError(ErrorCodes.REMOTE_FAILED, longText));
        assertThat(stored.error()).hasSize(SnapshotNormalizer.MAX_ERROR_CHARS).endsWith("[truncated]");
        assertThat(stored.statusMessage()).hasSize(SnapshotNormalizer.MAX_ERROR_CHARS);
        assertThat(stored.errorCode()).isEqualTo(ErrorCodes.REMOTE_FAILED);
    }

    @Test
    void capNeverSplitsASurrogatePair() {
        String emoji = "a".repeat(3984) + "\uD83D\uDE00" + "b".repeat(100);
        String capped = SnapshotNormalizer.cap(emoji, SnapshotNormalizer.MAX_ERROR_CHARS);
        assertThat(Character.isHighSurrogate(capped.charAt(capped.indexOf("...") - 1))).isFalse();
    }

    @Test
    void rejectsATinyResultBound() {
        assertThatThrownBy(() -> new SnapshotNormalizer(10)).isInstanceOf(DomainException.class);
    }

    @Test
    void aRemoteTaskIsNeverPending() {
        assertThatThrownBy(() -> RemoteTaskSnapshot.of("r", TaskStatus.PENDING)).isInstanceOf(DomainException.class);
    }
}
