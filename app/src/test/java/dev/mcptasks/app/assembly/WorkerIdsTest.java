package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

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
    void idsDifferPerStartAndStayShort() {
        assertThat(WorkerIds.generate()).isNotEqualTo(WorkerIds.generate());
        assertThat(WorkerIds.generate("h".repeat(300), 1, new Random(1)).value().length()).isLessThan(128);
        assertThat(WorkerIds.sanitize("")).isEqualTo("localhost");
    }
}
