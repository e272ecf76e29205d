package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the reference server's call log. */
class ServerJournalTest {
    @Test
    void joinsCallEndsToTheirBeginsAndNamesSessionsByClientTag() {
        ServerJournal journal = ServerJournal.parse(List.of(
                "{\"e\":\"session\",\"t\":1,\"session\":\"s1\",\"client\":\"w1.1\"}",
                "{\"e\":\"create\",\"t\":2,\"task\":\"r1\",\"kind\":\"task\",\"session\":\"s1\","
                        + "\"arguments\":{\"chaosKey\":\"c7\"}}",
                "{\"e\":\"begin\",\"t\":3,\"call\":1,\"task\":\"r1\",\"method\":\"tasks/get\",\"session\":\"s1\"}",
                "{\"e\":\"begin\",\"t\":4,\"call\":2,\"task\":\"r1\",\"method\":\"tasks/cancel\",\"session\":\"s1\"}",
                "{\"e\":\"end\",\"t\":5,\"call\":1,\"status\":\"working\"}",
                "{\"e\":\"terminal\",\"t\":6,\"task\":\"r1\",\"status\":\"cancelled\",\"result\":null}",
                "{\"e\":\"end\",\"t\":7,\"call\":2,\"er"));

        assertThat(journal.client("s1")).isEqualTo("w1.1");
        assertThat(journal.creations()).singleElement()
                .isEqualTo(new ServerJournal.Creation("r1", "s1", "c7", 2));
        assertThat(journal.calls()).containsExactly(
                new ServerJournal.Call(1, "r1", "tasks/get", "s1", 3, 5L, "working", null, null, 2, -1),
                new ServerJournal.Call(2, "r1", "tasks/cancel", "s1", 4, null, null, null, null, 3, -1));
        assertThat(journal.terminals().get("r1").status()).isEqualTo("cancelled");
        assertThat(journal.terminals().get("r1").result()).isNull();
    }

    @Test
    void twentyTwentySixLinesCarryTheirGenerationAndNameTheirClientByThePseudoSession() {
        ServerJournal journal = ServerJournal.parse(List.of(
                "{\"e\":\"create\",\"t\":2,\"task\":\"r1\",\"kind\":\"extension_task\",\"session\":\"2026:w2.3\","
                        + "\"arguments\":{\"chaosKey\":\"c7\"},\"generation\":\"2026-07-28\"}",
                "{\"e\":\"begin\",\"t\":3,\"call\":1,\"task\":\"r1\",\"method\":\"tasks/get\","
                        + "\"session\":\"2026:w2.3\",\"generation\":\"2026-07-28\"}",
                "{\"e\":\"create\",\"t\":4,\"task\":\"r2\",\"kind\":\"task\",\"session\":\"s1\","
                        + "\"arguments\":{\"chaosKey\":\"c8\"}}"));

        assertThat(journal.creations()).containsExactly(
                new ServerJournal.Creation("r1", "2026:w2.3", "c7", 2, "2026-07-28"),
                new ServerJournal.Creation("r2", "s1", "c8", 4, "2025-11-25"));
        assertThat(journal.client(journal.calls().get(0).session())).isEqualTo("w2.3");
        // a 2026 request without X-Client-Tag, and a 2025 session that never sent a session line, name no client
        assertThat(journal.client("2026")).isEqualTo("?");
        assertThat(journal.client("2026:")).isEqualTo("?");
        assertThat(journal.client("s9")).isEqualTo("?");
    }
}
