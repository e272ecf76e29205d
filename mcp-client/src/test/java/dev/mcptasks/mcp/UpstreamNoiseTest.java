package dev.mcptasks.mcp;

import static dev.mcptasks.mcp.McpSessionTest.CALLBACKS;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An upstream that floods what it may send at will (lines that are not JSON, answers to unknown ids, server requests
 * we refuse) cannot flood the log: a few lines per window, then one count; no line carries the upstream's content.
 */
class UpstreamNoiseTest {
    private static final String SECRETISH = "leaked-content-0123456789";
    private final FakeServer server = new FakeServer();
    private final ManualClock clock = new ManualClock();
    private final McpSession session = new McpSession(
            new McpServerSettings(FakeServer.spec(), Duration.ofSeconds(30), true), server, clock, CALLBACKS, "test");
    private final Logger logger = (Logger) LoggerFactory.getLogger(McpConnection.class);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @BeforeEach
    void capture() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
        session.close();
    }

    @Test
    void aFloodIsCutToAFewLinesPerWindowThenCountedAndNoLineQuotesTheUpstream() throws Exception {
        server.on("echo", request -> FakeServer.json("{}"));
        session.request("echo", null).get(10, TimeUnit.SECONDS);
        FakeTransport transport = server.last();

        for (int i = 0; i < 1_000; i++) {
            transport.deliver("not json " + SECRETISH + " " + i);
            transport.deliver("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"sampling/" + SECRETISH + "\"}");
        }
        assertThat(warnings()).hasSize(UpstreamNoise.LINES_PER_WINDOW);

        clock.advance(UpstreamNoise.WINDOW);
        transport.deliver("still not json " + SECRETISH);

        List<String> lines = warnings();
        assertThat(lines).hasSize(UpstreamNoise.LINES_PER_WINDOW + 2);
        assertThat(lines.get(UpstreamNoise.LINES_PER_WINDOW)).contains("1990 more such lines left out");
        assertThat(lines).noneMatch(line -> line.contains(SECRETISH));
    }

    private List<String> warnings() {
        return logs.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }
}
