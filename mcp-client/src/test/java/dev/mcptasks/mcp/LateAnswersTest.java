package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.FakeServer.json;
import static dev.mcptasks.mcp.McpSessionTest.CALLBACKS;
import static dev.mcptasks.mcp.McpSessionTest.failureOf;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The late answer to a request this client timed out or cancelled is expected: logged at DEBUG, not WARN. An answer
 * to an id the client never used is still a warning.
 */
class LateAnswersTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private final FakeServer server = new FakeServer();
    private final ManualClock clock = new ManualClock();
    private final McpSession session = new McpSession(
            new McpServerSettings(FakeServer.spec(), TIMEOUT, true), server, clock, CALLBACKS, "test");
    private final Logger logger = (Logger) LoggerFactory.getLogger(McpConnection.class);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private Level previous;

    @BeforeEach
    void capture() {
        previous = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        logs.start();
        logger.addAppender(logs);
        server.on("slow", (transport, request) -> null);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
        logger.setLevel(previous);
        session.close();
    }

    private String sentId() {
        return server.last().lastRequest("slow").get("id").asText();
    }

    @Test
    void theLateAnswerToATimedOutRequestIsLoggedAtDebug() throws Exception {
        CompletableFuture<JsonNode> call = session.request("slow", null);
        TaskPeerScript.eventually(() -> !server.transports.isEmpty() && !server.last().sent("slow").isEmpty(),
                "the request is written");
        clock.advance(TIMEOUT);
        assertThat(failureOf(call)).isInstanceOf(McpTimeoutException.class);

        server.last().reply(sentId(), json("{\"late\":true}"));

        assertThat(warnings()).isEmpty();
        assertThat(debugLines()).anyMatch(line -> line.contains("late answer") && line.contains(
                String.valueOf(sentId())));
    }

    @Test
    void theLateAnswerToACancelledRequestIsLoggedAtDebug() throws Exception {
        CompletableFuture<JsonNode> call = session.request("slow", null);
        TaskPeerScript.eventually(() -> !server.transports.isEmpty() && !server.last().sent("slow").isEmpty(),
                "the request is written");
        call.cancel(true);
        try {
            call.get(10, TimeUnit.SECONDS);
        } catch (Exception expected) {
            // cancelled
        }
        TaskPeerScript.eventually(() -> !server.last().sent("notifications/cancelled").isEmpty(),
                "the cancellation is sent");

        server.last().reply(sentId(), json("{\"late\":true}"));

        assertThat(warnings()).isEmpty();
        assertThat(debugLines()).anyMatch(line -> line.contains("late answer"));
    }

    @Test
    void anAnswerToAnIdNeverUsedIsStillAWarning() throws Exception {
        server.on("echo", request -> json("{}"));
        session.request("echo", null).get(10, TimeUnit.SECONDS);

        server.last().reply(RequestIds.prefix() + "-987654", json("{}"));

        assertThat(warnings()).anyMatch(line -> line.contains("unknown request id \"" + RequestIds.prefix()
                + "-987654\""));
    }

    private java.util.List<String> warnings() {
        return logs.list.stream().filter(event -> event.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private java.util.List<String> debugLines() {
        return logs.list.stream().filter(event -> event.getLevel() == Level.DEBUG)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }
}
