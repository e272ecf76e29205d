package dev.mcptasks.adapters.gateway;

import static dev.mcptasks.adapters.gateway.FrontHarness.ALICE;
import static dev.mcptasks.adapters.gateway.FrontHarness.BOB;
import static dev.mcptasks.adapters.gateway.FrontHarness.V2026;
import static dev.mcptasks.adapters.gateway.FrontHarness.errorOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.domain.TaskStatus;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** 2026-07-28 {@code subscriptions/listen} with {@code notifications/tasks}, driven through the dispatcher. */
class TaskListensTest {
    private static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

    private final FrontHarness front = new FrontHarness();

    /** What a subscription's stream carried, in order. */
    private static final class Captured implements RequestStream {
        final List<ObjectNode> messages = new CopyOnWriteArrayList<>();

        @Override
        public void send(ObjectNode message) {
            messages.add(message);
        }

        List<String> statuses() {
            return messages.stream().filter(m -> m.path("method").asText().equals("notifications/tasks"))
                    .map(m -> m.path("params").path("status").asText()).toList();
        }
    }

    private String createTask(String principal) {
        return front.result(principal, null, front.v2026("tools/call",
                "{'name':'alpha__long_job','arguments':{'n':3}}", true)).path("taskId").asText();
    }

    private CompletableFuture<Optional<ObjectNode>> listen(String principal, Captured stream, String filter,
            boolean tasksExtension) {
        ObjectNode message = front.v2026("subscriptions/listen", "{'notifications':" + filter + "}",
                tasksExtension);
        return front.dispatcher.dispatch(new FrontRequest(principal, null, message, null, stream));
    }

    @Test
    void theStreamAcknowledgesThenCarriesEachChangeAsADetailedTaskAndEndsWhenTheTaskEnds() {
        String id = createTask(ALICE);
        Captured stream = new Captured();
        CompletableFuture<Optional<ObjectNode>> response = listen(ALICE, stream, "{'taskIds':['" + id + "']}", true);

        assertThat(response).isNotDone();
        ObjectNode ack = stream.messages.get(0);
        assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
        assertThat(ack.path("params").path("notifications")).isEqualTo(FrontHarness.json("{'taskIds':['" + id
                + "']}"));
        JsonNode subscriptionId = response.isDone() ? null : ack.path("params").path("_meta").get(SUBSCRIPTION_ID);
        assertThat(subscriptionId).isNotNull();
        // the task as it is now, so that a change between the client's last poll and its subscription is not lost
        assertThat(stream.statuses()).containsExactly("working");

        front.created(id, V2026);
        front.tick();
        assertThat(stream.statuses()).as("nothing a client sees changed").containsExactly("working");

        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "half way"));
        front.tick();
        front.tick();
        front.polled(id, FrontHarness.inputRequired(
                "{'k1':{'method':'elicitation/create','params':{'message':'Deploy?'}}}"));
        front.tick();
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
        front.tick();

        assertThat(stream.statuses()).containsExactly("working", "working", "input_required", "completed");
        ObjectNode half = stream.messages.get(2);
        assertThat(half.path("params").path("statusMessage").asText()).isEqualTo("half way");
        assertThat(stream.messages.get(3).path("params").path("inputRequests").has("k1")).isTrue();
        ObjectNode done = stream.messages.get(4).deepCopy();
        for (ObjectNode message : stream.messages) {
            assertThat(message.path("params").path("_meta").path(SUBSCRIPTION_ID)).isEqualTo(subscriptionId);
        }
        // identical to what tasks/get answers at that moment (its own resultType and serverInfo aside)
        ObjectNode get = front.result(ALICE, null, front.v2026("tasks/get", "{'taskId':'" + id + "'}", true));
        ObjectNode params = (ObjectNode) done.get("params");
        params.remove("_meta");
        get.remove("resultType");
        get.remove("_meta");
        assertThat(params).isEqualTo(get);

        ObjectNode end = FrontHarness.answered(response);
        assertThat(end.path("result").path("resultType").asText()).isEqualTo("complete");
        assertThat(end.path("result").path("_meta").path(SUBSCRIPTION_ID)).isEqualTo(subscriptionId);
        assertThat(end.path("result").path("_meta").has(Envelope2026.SERVER_INFO)).isTrue();
        assertThat(front.door.watching()).isZero();
    }

    @Test
    void onlyTheCallersOwnTasksAreAgreedAndWithNoneTheSubscriptionEndsAtOnce() {
        String bobs = createTask(BOB);
        Captured stream = new Captured();
        CompletableFuture<Optional<ObjectNode>> response = listen(ALICE, stream,
                "{'taskIds':['" + bobs + "','no-such-task'],'toolsListChanged':true,'resourceSubscriptions':['x:y']}",
                true);

        assertThat(stream.messages).hasSize(1);
        assertThat(stream.messages.get(0).path("params").path("notifications"))
                .as("another principal's task does not exist for alice; list changes are not served")
                .isEqualTo(FrontHarness.json("{'taskIds':[]}"));
        assertThat(FrontHarness.answered(response).path("result").path("resultType").asText()).isEqualTo("complete");
    }

    @Test
    void anEndedTaskIsToldOnceAndTheSubscriptionEnds() {
        String id = createTask(ALICE);
        front.created(id, V2026);
        front.polled(id, FrontHarness.completed("{'content':[{'type':'text','text':'done'}]}"));
        Captured stream = new Captured();
        CompletableFuture<Optional<ObjectNode>> response = listen(ALICE, stream,
                "{'taskIds':['" + id + "','" + id + "']}", true);

        assertThat(stream.statuses()).containsExactly("completed");
        assertThat(stream.messages.get(1).path("params").path("result").path("content").get(0).path("text").asText())
                .isEqualTo("done");
        assertThat(response).isDone();
    }

    @Test
    void theClientLeavingEndsTheSubscriptionAndItsWatches() {
        String id = createTask(ALICE);
        Captured stream = new Captured();
        CompletableFuture<Optional<ObjectNode>> response = listen(ALICE, stream, "{'taskIds':['" + id + "']}", true);
        assertThat(front.door.watching()).isEqualTo(1);

        response.cancel(false);
        front.created(id, V2026);
        front.polled(id, FrontHarness.snapshot(TaskStatus.WORKING, "later"));
        front.tick();

        assertThat(front.door.watching()).isZero();
        assertThat(stream.statuses()).containsExactly("working");
    }

    @Test
    void theGatewayStoppingEndsEverySubscriptionGracefully() {
        String id = createTask(ALICE);
        CompletableFuture<Optional<ObjectNode>> response = listen(ALICE, new Captured(),
                "{'taskIds':['" + id + "']}", true);

        front.dispatcher.stopping();

        assertThat(FrontHarness.answered(response).path("result").path("_meta").has(SUBSCRIPTION_ID)).isTrue();
    }

    @Test
    void badParamsAndAMissingExtensionAreErrors() {
        Captured stream = new Captured();
        ObjectNode missing = front.v2026("subscriptions/listen", "{}", true);
        assertThat(errorOf(front.dispatcher.dispatch(new FrontRequest(ALICE, null, missing, null, stream)).join()
                .orElseThrow()).path("code").asInt()).isEqualTo(-32602);
        for (String filter : new String[] {"'all'", "{'taskIds':'t'}", "{'taskIds':[1]}"}) {
            JsonNode error = errorOf(listen(ALICE, stream, filter, true).join().orElseThrow());
            assertThat(error.path("code").asInt()).as(filter).isEqualTo(-32602);
        }
        JsonNode undeclared = errorOf(listen(ALICE, stream, "{'taskIds':['t']}", false).join().orElseThrow());
        assertThat(undeclared.path("code").asInt()).isEqualTo(-32021);
        assertThat(undeclared.path("data")).isEqualTo(FrontHarness.json(
                "{'requiredCapabilities':{'extensions':{'io.modelcontextprotocol/tasks':{}}}}"));
        assertThat(stream.messages).as("nothing is sent for a refused subscription").isEmpty();

        ObjectNode noStream = front.v2026("subscriptions/listen", "{'notifications':{'taskIds':[]}}", true);
        assertThat(errorOf(front.send(ALICE, null, noStream)).path("code").asInt()).isEqualTo(-32600);
    }

    @Test
    void aSessionOf2025HasNoSuchMethod() {
        FrontSession session = new FrontSession() {
            @Override
            public String id() {
                return "s";
            }

            @Override
            public void notify(ObjectNode notification) {}
        };
        front.result(ALICE, session, front.request("initialize", "{'protocolVersion':'2025-11-25','capabilities':{},"
                + "'clientInfo':{'name':'t','version':'1'}}"));
        assertThat(errorOf(front.send(ALICE, session, front.request("subscriptions/listen",
                "{'notifications':{'taskIds':[]}}"))).path("code").asInt()).isEqualTo(-32601);
    }
}
