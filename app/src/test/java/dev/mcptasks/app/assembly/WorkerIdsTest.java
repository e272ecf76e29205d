package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.WorkerId;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WorkerIdsTest {
    @Test
    void idsNameHostPidAndARandomPart() {
        WorkerId id = WorkerIds.generate("build box.local", 4242, new Random(1));
        assertThat(id.value()).matches("build-box\\.local:4242:[0-9a-z]{8}");
    }

    @Test
    void aLabelStartsTheIdAndNeverReplacesTheUniquePart() {
        assertThat(WorkerIds.labelled("web-1", "box", 4242, new Random(1)).value())
                .matches("web-1:box:4242:[0-9a-z]{8}");
        assertThat(WorkerIds.labelled("web-1")).isNotEqualTo(WorkerIds.labelled("web-1"));
        assertThat(WorkerIds.labelled("l".repeat(WorkerIds.MAX_LABEL_CHARS), "h".repeat(300), Long.MAX_VALUE,
                new Random(1)).value().length()).isLessThanOrEqualTo(128);
        assertThatThrownBy(() -> WorkerIds.labelled("a:b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--worker-id must be 1 to 40 characters of A-Z a-z 0-9 . _ -, was 'a:b'");
        assertThatThrownBy(() -> WorkerIds.labelled("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void idsDifferPerStartAndStayShort() {
        assertThat(WorkerIds.generate()).isNotEqualTo(WorkerIds.generate());
        assertThat(WorkerIds.generate("h".repeat(300), 1, new Random(1)).value().length()).isLessThan(128);
        assertThat(WorkerIds.sanitize("")).isEqualTo("localhost");
    }
}
