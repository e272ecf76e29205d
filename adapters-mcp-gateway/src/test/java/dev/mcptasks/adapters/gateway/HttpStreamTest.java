package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SSE on the 2025 endpoint: slow answers as streams (priming event, keep-alive comments, related notifications, the
 * response), the GET notification stream, resumption with {@code Last-Event-ID}, polling, and streams ending with
 * their session.
 */
class HttpStreamTest {
    private static final Duration NEVER = Duration.ofHours(1);

    private GatewayFixture fixture;

    @AfterEach
    void stop() {
        fixture.close();
    }

    private void start(Duration sseAfter, Duration keepAlive, Duration pollAfter) {
        fixture = new GatewayFixture(GatewaySettings.defaults().withStreaming(
                new GatewaySettings.Streaming(sseAfter, keepAlive, Duration.ofMillis(750), pollAfter)));
    }

    @Test
    void aQuickAnswerIsJsonEvenForAClientThatAcceptsStreams() {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.request(session, 2, "ping").send()) {
            assertThat(response.header("Content-Type")).isEqualTo("application/json");
        }
    }

    @Test
    void aSlowAnswerStreamsAPrimingEventKeepAlivesAndThenTheResponse() throws Exception {
        start(Duration.ZERO, Duration.ofMillis(20), Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response response = fixture.request(session, 2, "tools/call").send()) {
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).isEqualTo("text/event-stream");
            WireClient.SseEvent priming = response.nextEvent();
            assertThat(priming.id()).endsWith("-0");
            assertThat(priming.retry()).isEqualTo(750L);
            assertThat(priming.data()).isEmpty();
            assertThat(response.nextEvent().comment()).isEqualTo("keepalive");

            FrontRequest call = fixture.dispatcher.next("tools/call");
            gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode()
                    .put("done", true))));
            WireClient.SseEvent answer = response.nextMessage();
            assertThat(answer.event()).isEqualTo("message");
            assertThat(answer.id()).isEqualTo(priming.id().replace("-0", "-1"));
            assertThat(answer.json().path("id").asInt()).isEqualTo(2);
            assertThat(answer.json().path("result").path("done").asBoolean()).isTrue();
            assertThat(response.nextEvent()).isNull();
        }
    }

    @Test
    void anAnswerSlowerThanSseAfterTurnsIntoAStreamWhenTheDelayRunsOut() throws Exception {
        start(Duration.ofMillis(50), Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response response = fixture.request(session, 2, "tools/call").send()) {
            // the head arrives while the answer is still gated: the delay, not the answer, started the stream
            assertThat(response.header("Content-Type")).isEqualTo("text/event-stream");
            assertThat(gate).isNotDone();
            FrontRequest call = fixture.dispatcher.next("tools/call");
            gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
            assertThat(response.nextMessage().json().path("id").asInt()).isEqualTo(2);
        }
    }

    @Test
    void aClientThatDoesNotAcceptStreamsWaitsForJson() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response response = fixture.request(session, 2, "tools/call")
                .header("Accept", "application/json").send()) {
            FrontRequest call = fixture.dispatcher.next("tools/call");
            gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
            assertThat(response.header("Content-Type")).isEqualTo("application/json");
            assertThat(response.json().path("id").asInt()).isEqualTo(2);
        }
    }

    @Test
    void aClientThatLeavesWhileWaitingForJsonCancelsTheRequestSinceNobodyCanResumeIt() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        WireClient.Response response = fixture.request(session, 2, "tools/call").header("Accept", "application/json")
                .send();
        fixture.dispatcher.next("tools/call");
        response.close();
        assertThat(gate).failsWithin(Duration.ofSeconds(10));
        assertThat(gate.isCancelled()).isTrue();
    }

    @Test
    void deletingTheSessionCancelsTheAnswersItsStreamsStillWaitFor() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response stream = fixture.request(session, 2, "tools/call").send()) {
            assertThat(stream.nextEvent().data()).isEmpty();
            try (WireClient.Response delete = fixture.client.delete().header(HttpReplies.SESSION_ID, session).send()) {
                assertThat(delete.status()).isEqualTo(200);
            }
            assertThat(gate).failsWithin(Duration.ofSeconds(10));
            assertThat(gate.isCancelled()).isTrue();
            assertThat(stream.nextMessage()).isNull();
        }
    }

    @Test
    void aNotificationWithTheRequestsProgressTokenGoesOnItsStreamBeforeTheResponse() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        String call = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
                + "\"_meta\":{\"progressToken\":\"p-1\"}}}";
        try (WireClient.Response response = fixture.client.post(call).header(HttpReplies.SESSION_ID, session).send()) {
            FrontRequest request = fixture.dispatcher.next("tools/call");
            request.session().notify(notification("notifications/progress", "progressToken", "p-1"));
            assertThat(response.header("Content-Type")).isEqualTo("text/event-stream");
            WireClient.SseEvent progress = response.nextMessage();
            assertThat(progress.json().path("method").asText()).isEqualTo("notifications/progress");
            gate.complete(Optional.of(FakeDispatcher.result(request, JsonNodeFactory.instance.objectNode())));
            assertThat(response.nextMessage().json().path("id").asInt()).isEqualTo(4);
            assertThat(response.nextEvent()).isNull();
        }
    }

    @Test
    void aNotificationOrAnswerAfterTheGatewayStoppedIsDroppedNotThrownAtTheDispatcher() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        String call = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\","
                + "\"_meta\":{\"progressToken\":7}}}";
        try (WireClient.Response response = fixture.client.post(call).header(HttpReplies.SESSION_ID, session).send()) {
            FrontRequest request = fixture.dispatcher.next("tools/call");
            fixture.close();
            ObjectNode progress = notification("notifications/progress", "total", "1");
            ((ObjectNode) progress.path("params")).put("progressToken", 7);
            assertThatCode(() -> request.session().notify(progress)).doesNotThrowAnyException();
            assertThatCode(() -> gate.complete(Optional.of(FakeDispatcher.result(request,
                    JsonNodeFactory.instance.objectNode())))).doesNotThrowAnyException();
        }
    }

    @Test
    void aStatusNotificationOfTheTaskABlockedResultWaitsForGoesOnThatStream() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tasks/result");
        String result = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tasks/result\",\"params\":{\"taskId\":\"t-9\"}}";
        try (WireClient.Response response = fixture.client.post(result).header(HttpReplies.SESSION_ID, session)
                .send()) {
            FrontRequest request = fixture.dispatcher.next("tasks/result");
            ObjectNode related = notification("notifications/message", "level", "info");
            ((ObjectNode) related.path("params")).putObject("_meta")
                    .putObject("io.modelcontextprotocol/related-task").put("taskId", "t-9");
            request.session().notify(related);
            assertThat(response.nextMessage().json().path("method").asText()).isEqualTo("notifications/message");
            gate.complete(Optional.of(FakeDispatcher.result(request, JsonNodeFactory.instance.objectNode())));
            assertThat(response.nextMessage().json().path("id").asInt()).isEqualTo(6);
        }
    }

    @Test
    void theGetStreamCarriesTheSessionsOtherNotifications() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        FrontSession front = fixture.dispatcher.next("initialize").session();
        front.notify(notification("notifications/tasks/status", "taskId", "dropped"));
        try (WireClient.Response stream = fixture.client.get().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(stream.header("Content-Type")).isEqualTo("text/event-stream");
            assertThat(stream.nextEvent().data()).isEmpty();
            front.notify(notification("notifications/tasks/status", "taskId", "t-1"));
            WireClient.SseEvent status = stream.nextMessage();
            // the notification sent while no stream was open is gone: notifications are advisory
            assertThat(status.json().path("params").path("taskId").asText()).isEqualTo("t-1");
        }
    }

    @Test
    void aNewGetStreamReplacesTheOldOne() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        FrontSession front = fixture.dispatcher.next("initialize").session();
        try (WireClient.Response first = fixture.client.get().header(HttpReplies.SESSION_ID, session).send()) {
            // its priming event shows the first stream is open before the second is asked for
            assertThat(first.nextEvent().data()).isEmpty();
            try (WireClient.Response second = fixture.client.get().header(HttpReplies.SESSION_ID, session).send()) {
                assertThat(second.nextEvent().data()).isEmpty();
                assertThat(first.nextMessage()).isNull();
                front.notify(notification("notifications/tasks/status", "taskId", "t-2"));
                assertThat(second.nextMessage().json().path("params").path("taskId").asText()).isEqualTo("t-2");
            }
        }
    }

    @Test
    void aClientThatLostItsStreamResumesWithLastEventIdAndGetsOnlyThatStreamsEvents() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> first = fixture.dispatcher.gate("tools/call");
        WireClient.Response lost = fixture.request(session, 2, "tools/call").send();
        String primingId = lost.nextEvent().id();
        FrontRequest firstCall = fixture.dispatcher.next("tools/call");
        lost.close();

        CompletableFuture<Optional<ObjectNode>> second = fixture.dispatcher.gate("tools/call");
        try (WireClient.Response other = fixture.request(session, 3, "tools/call").send()) {
            other.nextEvent();
            FrontRequest secondCall = fixture.dispatcher.next("tools/call");
            second.complete(Optional.of(FakeDispatcher.result(secondCall, JsonNodeFactory.instance.objectNode())));
            assertThat(other.nextMessage().json().path("id").asInt()).isEqualTo(3);
        }
        // a 2025 answer stream outlives its connection: the request was not cancelled
        assertThat(first.complete(Optional.of(FakeDispatcher.result(firstCall, JsonNodeFactory.instance.objectNode()
                .put("answer", 42))))).isTrue();

        try (WireClient.Response resumed = fixture.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Last-Event-ID", primingId).send()) {
            assertThat(resumed.status()).isEqualTo(200);
            WireClient.SseEvent answer = resumed.nextMessage();
            assertThat(answer.json().path("id").asInt()).isEqualTo(2);
            assertThat(answer.json().path("result").path("answer").asInt()).isEqualTo(42);
            assertThat(resumed.nextMessage()).isNull();
        }
    }

    @Test
    void afterPollAfterTheGatewayClosesThePostStreamAndTheClientPollsForTheAnswer() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ofMillis(50));
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        String primingId;
        try (WireClient.Response polled = fixture.request(session, 2, "tools/call").send()) {
            WireClient.SseEvent priming = polled.nextEvent();
            primingId = priming.id();
            assertThat(priming.retry()).isEqualTo(750L);
            assertThat(polled.nextMessage()).isNull();
        }
        FrontRequest call = fixture.dispatcher.next("tools/call");
        gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
        try (WireClient.Response resumed = fixture.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Last-Event-ID", primingId).send()) {
            assertThat(resumed.nextMessage().json().path("id").asInt()).isEqualTo(2);
        }
    }

    @Test
    void aResumedStreamStillOpenKeepsCarryingItsEvents() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = fixture.dispatcher.gate("tools/call");
        WireClient.Response lost = fixture.request(session, 2, "tools/call").send();
        String primingId = lost.nextEvent().id();
        FrontRequest call = fixture.dispatcher.next("tools/call");
        lost.close();
        try (WireClient.Response resumed = fixture.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Last-Event-ID", primingId).send()) {
            assertThat(resumed.status()).isEqualTo(200);
            gate.complete(Optional.of(FakeDispatcher.result(call, JsonNodeFactory.instance.objectNode())));
            assertThat(resumed.nextMessage().json().path("id").asInt()).isEqualTo(2);
            assertThat(resumed.nextEvent()).isNull();
        }
    }

    @Test
    void anUnknownLastEventIdIsRefused() {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Last-Event-ID", "99-3").send()) {
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.json().path("error").path("message").asText()).contains("99-3");
        }
    }

    @Test
    void aGetThatDoesNotAcceptEventStreamsGets406() {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.client.get().header(HttpReplies.SESSION_ID, session)
                .header("Accept", "application/json").send()) {
            assertThat(response.status()).isEqualTo(406);
        }
    }

    @Test
    void deletingTheSessionEndsItsGetStream() throws Exception {
        start(NEVER, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        try (WireClient.Response stream = fixture.client.get().header(HttpReplies.SESSION_ID, session).send()) {
            assertThat(stream.nextEvent().data()).isEmpty();
            try (WireClient.Response delete = fixture.client.delete().header(HttpReplies.SESSION_ID, session).send()) {
                assertThat(delete.status()).isEqualTo(200);
            }
            assertThat(stream.nextMessage()).isNull();
        }
        assertThat(fixture.dispatcher.nextClosed().id()).isEqualTo(session);
    }

    @Test
    void severalStreamsOfOneSessionRunAtOnce() throws Exception {
        start(Duration.ZERO, Duration.ZERO, Duration.ZERO);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> gate = new CompletableFuture<>();
        fixture.dispatcher.answer("tools/call", request -> gate.thenApply(ignored ->
                Optional.of(FakeDispatcher.result(request, JsonNodeFactory.instance.objectNode()))));
        try (WireClient.Response a = fixture.request(session, 10, "tools/call").send();
                WireClient.Response b = fixture.request(session, 11, "tools/call").send();
                WireClient.Response c = fixture.request(session, 12, "tools/call").send()) {
            String[] ids = {a.nextEvent().id(), b.nextEvent().id(), c.nextEvent().id()};
            assertThat(ids).doesNotHaveDuplicates();
            gate.complete(Optional.empty());
            assertThat(a.nextMessage().json().path("id").asInt()).isEqualTo(10);
            assertThat(b.nextMessage().json().path("id").asInt()).isEqualTo(11);
            assertThat(c.nextMessage().json().path("id").asInt()).isEqualTo(12);
        }
    }

    private static ObjectNode notification(String method, String field, String value) {
        ObjectNode notification = JsonNodeFactory.instance.objectNode();
        notification.put("jsonrpc", "2.0");
        notification.put("method", method);
        notification.putObject("params").put(field, value);
        return notification;
    }
}
