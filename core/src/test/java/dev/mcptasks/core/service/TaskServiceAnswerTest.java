package dev.mcptasks.core.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcptasks.domain.ClaimPhase;
import dev.mcptasks.domain.StoredSnapshot;
import dev.mcptasks.domain.SubmitPolicy;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.AnswerOutcome;
import dev.mcptasks.ports.repository.ClaimedTask;
import dev.mcptasks.ports.repository.ControlClaimRequest;
import dev.mcptasks.ports.repository.SubmitWrite;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link TaskService#answer}: what it checks before it stores a user's answer to an input request. */
class TaskServiceAnswerTest {
    static final String REQUESTS = "{\"confirm\":{\"method\":\"elicitation/create\",\"params\":{\"message\":"
            + "\"Deploy?\"}},\"roots\":{\"method\":\"roots/list\"}}";
    static final String ACCEPT = "{\"action\": \"accept\", \"content\": {\"ok\": true}}";

    private final ManualClock clock = new ManualClock();
    private final SequentialIdGenerator ids = new SequentialIdGenerator();
    private final InMemoryTaskRepository repository = new InMemoryTaskRepository(clock, ids);
    private final ServerDirectory servers = ServerDirectory.of(List.of(
            new ServerProfile("native", "mcp-tasks", null, SubmitPolicy.AT_MOST_ONCE)));
    private final TaskService service = new TaskService(repository, servers, ids);

    @Test
    void anAnswerToAPendingRequestOfA2026TaskIsStoredCanonicalAndADuplicateKeepsTheFirst() {
        TaskId id = waiting("2026-07-28", "r-1");

        assertThat(service.answer(id, "confirm", ACCEPT)).isEqualTo(AnswerOutcome.ACCEPTED);

        TaskRecord row = service.find(id).orElseThrow();
        assertThat(row.state().inputResponsesJson())
                .isEqualTo("{\"confirm\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}");
        assertThat(row.control().nextControlAt()).isEqualTo(clock.now());
        assertThat(service.answer(id, "confirm", "{\"action\":\"decline\"}")).isEqualTo(AnswerOutcome.DUPLICATE);
        assertThat(service.find(id).orElseThrow().state().inputResponsesJson()).contains("accept");
        assertThat(service.answer(id, "roots", "{\"roots\":[]}")).isEqualTo(AnswerOutcome.ACCEPTED);
    }

    @Test
    void anInputRoundBeforeAnyTaskTakesAnswersToo() {
        TaskId id = waiting("2026-07-28", null);

        assertThat(service.answer(id, "confirm", ACCEPT)).isEqualTo(AnswerOutcome.ACCEPTED);
        assertThat(InputRequests.answerable(service.find(id).orElseThrow())).isTrue();
    }

    @Test
    void aMissingTaskIsNotFound() {
        assertThat(service.answer(TaskId.of("missing"), "confirm", ACCEPT)).isEqualTo(AnswerOutcome.NOT_FOUND);
    }

    @Test
    void aTaskThatWaitsForNothingIsRefused() {
        TaskId id = service.submit("native", "t", "{}").id();

        assertThatThrownBy(() -> service.answer(id, "confirm", ACCEPT))
                .isInstanceOfSatisfying(AnswerRejectedException.class, e -> assertThat(e.reason())
                        .isEqualTo(AnswerRejectedException.Reason.NOT_WAITING))
                .hasMessage("task " + id + " is pending, not input_required: it waits for no answer");
    }

    @Test
    void a2025TaskIsRefusedWithWhereItsAnswersGo() {
        TaskId id = waiting("2025-11-25", "r-1");

        assertThatThrownBy(() -> service.answer(id, "confirm", ACCEPT))
                .isInstanceOfSatisfying(AnswerRejectedException.class, e -> assertThat(e.reason())
                        .isEqualTo(AnswerRejectedException.Reason.GENERATION_CANNOT_ANSWER))
                .hasMessageContaining("2025-11-25").hasMessageContaining("tasks/result stream")
                .hasMessageContaining("does not drive");
        assertThat(service.find(id).orElseThrow().state().inputResponsesJson()).isNull();
        assertThat(InputRequests.answerable(service.find(id).orElseThrow())).isFalse();
    }

    @Test
    void aKeyTheServerDidNotAskForIsRefusedNamingThePendingOnes() {
        TaskId id = waiting("2026-07-28", "r-1");

        assertThatThrownBy(() -> service.answer(id, "confrim", ACCEPT))
                .isInstanceOfSatisfying(AnswerRejectedException.class, e -> assertThat(e.isBadInput()).isTrue())
                .hasMessage("task " + id + " has no input request 'confrim'; its requests: confirm, roots");
    }

    @Test
    void anAnswerMustBeTheBareResultObject() {
        TaskId id = waiting("2026-07-28", "r-1");

        assertThatThrownBy(() -> service.answer(id, "confirm", "[1]")).isInstanceOf(AnswerRejectedException.class)
                .hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> service.answer(id, "confirm", "{bad")).isInstanceOf(AnswerRejectedException.class)
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> service.answer(id, "confirm", "{\"result\":" + ACCEPT + "}"))
                .isInstanceOf(AnswerRejectedException.class).hasMessageContaining("bare result");
        assertThat(service.find(id).orElseThrow().state().inputResponsesJson()).isNull();
    }

    @Test
    void inputRequestsAreReadByKeyWithMethodAndMessage() {
        TaskRecord row = service.find(waiting("2026-07-28", "r-1")).orElseThrow();

        assertThat(InputRequests.of(row)).containsExactly(
                new InputRequests.InputRequest("confirm", "elicitation/create", "Deploy?"),
                new InputRequests.InputRequest("roots", "roots/list", null));
        assertThat(InputRequests.pendingAnswerKeys(row)).isEmpty();
    }

    /** A task in input_required under {@code version}: created with {@code remoteId}, or an input round (null). */
    private TaskId waiting(String version, String remoteId) {
        TaskId id = service.submit("native", "deploy", "{}").id();
        List<ClaimedTask> claimed = repository.claimControl(new ControlClaimRequest(ClaimPhase.SUBMIT,
                WorkerId.of("w1"), 1, Duration.ofSeconds(30), Duration.ofSeconds(30), Set.of()));
        StoredSnapshot snapshot = new StoredSnapshot(TaskStatus.INPUT_REQUIRED, null, null, false, null, null,
                REQUESTS);
        assertThat(repository.applySubmitted(claimed.get(0).claim(), new SubmitWrite(remoteId, snapshot, null,
                version, null, remoteId == null ? null : clock.now().plusSeconds(5), null,
                remoteId == null ? "state-1" : null))).isTrue();
        return id;
    }
}
