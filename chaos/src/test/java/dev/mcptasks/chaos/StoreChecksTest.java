package dev.mcptasks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each store check reports the violation it is for, and a consistent end state reports none. */
class StoreChecksTest {
    private static final String RESULT_A = "{\"content\":[{\"type\":\"text\",\"text\":\"result-1\"}],\"isError\":false}";

    private static ServerJournal journal(String... lines) {
        return ServerJournal.parse(List.of(lines));
    }

    private static String create(String task, String key) {
        return "{\"e\":\"create\",\"t\":1,\"task\":\"" + task + "\",\"session\":\"s1\",\"arguments\":{\"chaosKey\":\""
                + key + "\"}}";
    }

    private static String terminal(String task, String status, String result) {
        return "{\"e\":\"terminal\",\"t\":2,\"task\":\"" + task + "\",\"status\":\"" + status + "\",\"result\":"
                + result + "}";
    }

    private static List<String> kinds(CheckResult result) {
        return result.violations().stream().map(Violation::kind).toList();
    }

    @Test
    void aConsistentEndStateHasNoViolation() {
        ServerJournal server = journal(
                create("r1", "c1"), terminal("r1", "completed", "{\"content\":[{\"type\":\"text\",\"text\":\"result-1\"}],"
                        + "\"_meta\":{\"x\":1}}"),
                create("r2", "c2"), terminal("r2", "cancelled", "null"),
                create("r3", "c3"), terminal("r3", "failed", "{\"content\":[],\"isError\":true}"),
                create("r4", "c4"), terminal("r4", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(
                new StoreRow("t1", "c1", "completed", null, "r1", RESULT_A, false),
                new StoreRow("t2", "c2", "cancelled", null, "r2", null, true),
                new StoreRow("t3", "c3", "failed", "remote_failed", "r3", null, false),
                new StoreRow("t4", "c4", "failed", "submit_outcome_unknown", null, null, false),
                new StoreRow("t5", "c5", "cancelled", null, null, null, true));

        CheckResult result = StoreChecks.check(rows, server, true);

        assertThat(result.violations()).isEmpty();
        assertThat(result.figures()).containsEntry("tasks", 5).containsEntry("status completed", 1);
    }

    @Test
    void aTaskCreatedTwiceUnderAtMostOnceIsADuplicateCreate() {
        ServerJournal server = journal(create("r1", "c1"), create("r1b", "c1"),
                terminal("r1", "completed", "{\"content\":[]}"), terminal("r1b", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(new StoreRow("t1", "c1", "completed", null, "r1", "{\"content\":[]}", false));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("duplicate_create");
        assertThat(kinds(StoreChecks.check(rows, server, false))).isEmpty();
    }

    @Test
    void aTaskReportedCancelledThatTheServerCreatedAndRanIsReported() {
        ServerJournal server = journal(create("r1", "c1"), terminal("r1", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(new StoreRow("t1", "c1", "cancelled", null, null, null, true));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("cancelled_but_created");
    }

    @Test
    void aCancelledTaskWhoseCreateMayHaveRunEndsSubmitOutcomeUnknownWhichIsCorrect() {
        ServerJournal server = journal(create("r1", "c1"), terminal("r1", "completed", "{\"content\":[]}"));
        List<StoreRow> failed = List.of(new StoreRow("t1", "c1", "failed", "submit_outcome_unknown", null, null, true));
        List<StoreRow> cancelled = List.of(new StoreRow("t1", "c1", "cancelled", null, null, null, true));

        assertThat(kinds(StoreChecks.check(failed, server, true))).isEmpty();
        assertThat(kinds(StoreChecks.check(cancelled, server, true))).containsExactly("cancelled_but_created");
    }

    @Test
    void aStatusTheServerDidNotReachIsAMismatch() {
        ServerJournal server = journal(create("r1", "c1"), terminal("r1", "cancelled", "null"),
                create("r2", "c2"), terminal("r2", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(
                new StoreRow("t1", "c1", "completed", null, "r1", "{\"content\":[]}", true),
                new StoreRow("t2", "c2", "cancelled", null, "r2", null, true));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("status_mismatch", "status_mismatch");
    }

    @Test
    void aStoredResultThatDiffersFromTheServersIsAMismatch() {
        ServerJournal server = journal(create("r1", "c1"),
                terminal("r1", "completed", "{\"content\":[{\"type\":\"text\",\"text\":\"other\"}]}"));
        List<StoreRow> rows = List.of(new StoreRow("t1", "c1", "completed", null, "r1", RESULT_A, false));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("result_mismatch");
    }

    @Test
    void aNonTerminalTaskAndALostTaskOnASharedServerAreReported() {
        ServerJournal server = journal(create("r1", "c1"), create("r2", "c2"));
        List<StoreRow> rows = List.of(
                new StoreRow("t1", "c1", "working", null, "r1", null, false),
                new StoreRow("t2", "c2", "failed", "remote_task_lost", "r2", null, false));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("not_terminal", "lost_but_alive");
    }

    @Test
    void aRemoteIdTheServerNeverCreatedForTheKeyIsReported() {
        ServerJournal server = journal(create("r1", "c1"), terminal("r1", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(new StoreRow("t2", "c2", "completed", null, "r1", "{\"content\":[]}", false));

        assertThat(kinds(StoreChecks.check(rows, server, true))).containsExactly("unknown_remote_task");
    }

    private static String create2026(String task, String key) {
        return "{\"e\":\"create\",\"t\":1,\"task\":\"" + task + "\",\"kind\":\"extension_task\","
                + "\"session\":\"2026:w1.1\",\"arguments\":{\"chaosKey\":\"" + key + "\"},"
                + "\"generation\":\"2026-07-28\"}";
    }

    private static StoreRow row2026(String id, String key, String status, String errorCode, String remoteTaskId,
            String result, boolean cancelRequested) {
        return new StoreRow(id, key, status, errorCode, remoteTaskId, result, cancelRequested, null, "2026-07-28");
    }

    @Test
    void aTwentyTwentySixCancelThatLostTheRaceToTheTasksEndIsCountedNotAViolation() {
        ServerJournal server = journal(
                create2026("r1", "c1"), terminal("r1", "completed", "{\"content\":[{\"type\":\"text\","
                        + "\"text\":\"result-1\"}]}"),
                create2026("r2", "c2"), terminal("r2", "failed", "null"));
        List<StoreRow> rows = List.of(
                row2026("t1", "c1", "completed", null, "r1", RESULT_A, true),
                row2026("t2", "c2", "failed", "remote_failed", "r2", null, true));

        CheckResult result = StoreChecks.check(rows, server, true);

        assertThat(result.violations()).isEmpty();
        assertThat(result.figures()).containsEntry("cancel requested, task ended completed anyway", 1)
                .containsEntry("cancel requested, task ended failed anyway", 1)
                .containsEntry("generation 2026-07-28", 2);
    }

    @Test
    void aTwentyTwentySixTaskReportedCancelledThatTheServerCompletedIsAMismatch() {
        ServerJournal server = journal(create2026("r1", "c1"), terminal("r1", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(row2026("t1", "c1", "cancelled", null, "r1", null, true));

        CheckResult result = StoreChecks.check(rows, server, true);

        assertThat(result.violations()).singleElement().satisfies(violation -> {
            assertThat(violation.kind()).isEqualTo("status_mismatch");
            assertThat(violation.detail()).contains("only an acknowledgement");
        });
    }

    @Test
    void completedWithoutARemoteTaskIsLegitimateOnlyForATwentyTwentySixCallTheServerMadeNoTaskFor() {
        ServerJournal server = journal(create2026("r2", "c2"), terminal("r2", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(
                row2026("t1", "c1", "completed", null, null, "{\"content\":[]}", false),
                row2026("t2", "c2", "completed", null, null, "{\"content\":[]}", false),
                new StoreRow("t3", "c3", "completed", null, null, "{\"content\":[]}", false, null, "2025-11-25"));

        CheckResult result = StoreChecks.check(rows, server, true);

        assertThat(result.violations()).extracting(Violation::subject).containsExactly("t2", "t3");
        assertThat(kinds(result)).containsOnly("completed_without_remote_task");
        assertThat(result.figures()).containsEntry("completed at once without a task (2026-07-28)", 1);
    }

    @Test
    void aRowOnAnotherGenerationThanItsRemoteTaskIsAGenerationMismatch() {
        ServerJournal server = journal(
                create2026("r1", "c1"), terminal("r1", "completed", "{\"content\":[]}"),
                create("r2", "c2"), terminal("r2", "completed", "{\"content\":[]}"));
        List<StoreRow> rows = List.of(
                new StoreRow("t1", "c1", "completed", null, "r1", "{\"content\":[]}", false, null, "2025-11-25"),
                row2026("t2", "c2", "completed", null, "r2", "{\"content\":[]}", false));

        CheckResult result = StoreChecks.check(rows, server, true);

        assertThat(kinds(result)).containsExactly("generation_mismatch", "generation_mismatch");
    }
}
