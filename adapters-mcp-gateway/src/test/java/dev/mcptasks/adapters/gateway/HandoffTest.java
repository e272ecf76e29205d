package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.BOB;
import static dev.mcptasks.adapters.gateway.FrontHarness.V2025;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.ports.repository.TaskQuery;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A plain call still running after gateway.handoffSeconds goes on as a task the client follows with tools. */
class HandoffTest {
    private static final Duration AFTER = Duration.ofSeconds(60);
    private final FrontHarness front = FrontHarness.tuned(settings -> settings.withHandoffAfter(AFTER));
    private final RecordingSession session = new RecordingSession("s-1");

    private ObjectNode call(String principal, String name, String arguments) {
        return front.result(principal, session, front.request("tools/call", "{'name':'" + name + "','arguments':"
                + arguments + "}"));
    }

    @Test
    void theHandoffToolsAreListedAfterTheUpstreamTools() {
        ObjectNode listed = front.result(ALICE, session, front.request("tools/list", "{}"));
        assertThat(listed.path("tools").findValuesAsText("name")).endsWith(Handoff.STATUS, Handoff.RESULT,
                Handoff.CANCEL, Handoff.LIST);
    }

    @Test
    void aCallThatEndsInTimeIsAnsweredAsUsual() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo'}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2025);
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'quick'}]}"));
        front.tick();

        ObjectNode result = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(result.path("content").get(0).path("text").asText()).isEqualTo("quick");
    }

    @Test
    void aLongCallIsHandedOffAndFollowedWithTheHandoffTools() {
        CompletableFuture<Optional<ObjectNode>> blocked = front.dispatch(ALICE, session,
                front.request("tools/call", "{'name':'beta__echo'}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();
        front.created(id, V2025);
        front.tick();
        assertThat(blocked).isNotDone();

        front.clock.advance(AFTER);

        ObjectNode handedOff = (ObjectNode) FrontHarness.answered(blocked).get("result");
        assertThat(handedOff.path("isError").asBoolean()).isFalse();
        assertThat(handedOff.path("content").get(0).path("text").asText())
                .contains("goes on as task " + id, Handoff.RESULT, "{\"taskId\": \"" + id + "\"}");
        assertThat(handedOff.path("structuredContent").path("taskId").asText()).isEqualTo(id);

        ObjectNode status = call(ALICE, Handoff.STATUS, "{'taskId':'" + id + "'}");
        assertThat(status.path("content").get(0).path("text").asText()).startsWith("Task " + id + " (echo) is working");
        ObjectNode listed = call(ALICE, Handoff.LIST, "{}");
        assertThat(listed.path("structuredContent").path("tasks").findValuesAsText("taskId")).containsExactly(id);

        CompletableFuture<Optional<ObjectNode>> waiting = front.dispatch(ALICE, session, front.request("tools/call",
                "{'name':'" + Handoff.RESULT + "','arguments':{'taskId':'" + id + "'}}"));
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'at last'}]}"));
        front.tick();
        assertThat(FrontHarness.answered(waiting).path("result").path("content").get(0).path("text").asText())
                .isEqualTo("at last");
    }

    @Test
    void anotherPrincipalCannotFollowOrCancelAlicesTask() {
        front.dispatch(ALICE, session, front.request("tools/call", "{'name':'beta__echo'}"));
        String id = front.repo.list(TaskQuery.all(10)).get(0).id().value();

        for (String tool : new String[] {Handoff.STATUS, Handoff.RESULT, Handoff.CANCEL}) {
            JsonNode error = front.send(BOB, new RecordingSession("s-bob"), front.request("tools/call",
                    "{'name':'" + tool + "','arguments':{'taskId':'" + id + "'}}")).path("error");
            assertThat(error.path("message").asText()).as(tool).isEqualTo("Task not found");
        }
        assertThat(front.row(id).control().cancelRequestedAt()).isNull();
    }
}
