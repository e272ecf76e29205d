package dev.mcptasks.app.assembly;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.app.logging.RedactedMessageConverter;
import dev.mcptasks.app.logging.RedactedThrowableConverter;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.repository.TaskRecord;
import dev.mcptasks.ports.repository.TaskRepository;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * An upstream (or a proxy in front of it) that echoes the request headers in its error body: the configured
 * {@code Authorization} token reaches neither the store nor the log, through the production assembly.
 */
class SecretRedactionEndToEndTest {
    private static final String TOKEN = "sk-live-SECRET-0123456789abcdef";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer upstream;
    private Application app;
    private WorkerProcess worker;
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

    @AfterEach
    void close() {
        root.detachAppender(logs);
        if (worker != null) {
            worker.stop();
        }
        if (app != null) {
            app.close();
        }
        if (upstream != null) {
            upstream.stop(0);
        }
    }

    @Test
    void anUpstreamEchoingTheConfiguredTokenLeavesItInNoRowAndNoLogLine() throws Exception {
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        upstream.createContext("/mcp", exchange -> {
            StringBuilder echoed = new StringBuilder("bad gateway; you sent:");
            exchange.getRequestHeaders().forEach((name, values) -> echoed.append(' ').append(name).append('=')
                    .append(values));
            byte[] body = echoed.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(502, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            } catch (IOException e) {
                // the client left
            }
        });
        upstream.start();
        logs.start();
        root.addAppender(logs);

        app = AppRoot.production().openWorker(config(), WorkerId.of("redaction-test"));
        worker = new WorkerProcess(app);
        worker.start();
        TaskRecord submitted = app.get(TaskService.class).submit("up", "echo", "{}");

        TaskRepository store = app.get(TaskRepository.class);
        TaskRecord row = submitted;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (row.control() == null || row.control().lastPollError() == null) {
            assertThat(System.nanoTime()).as("the failed attempt is recorded within 30 s").isLessThan(deadline);
            Thread.onSpinWait();
            row = store.find(submitted.id()).orElseThrow();
        }

        assertThat(row.control().lastPollError()).contains("502").contains("[redacted]");
        assertThat(row.toString() + row.control() + row.state()).doesNotContain(TOKEN);
        List<ILoggingEvent> events = List.copyOf(logs.list);
        assertThat(events).as("the echo reached the log path").anyMatch(e -> e.getFormattedMessage().contains("502")
                || (e.getThrowableProxy() != null && e.getThrowableProxy().getMessage().contains("502")));
        RedactedMessageConverter message = new RedactedMessageConverter();
        RedactedThrowableConverter exception = new RedactedThrowableConverter();
        exception.start();
        for (ILoggingEvent event : events) {
            assertThat(message.convert(event) + exception.convert(event)).doesNotContain(TOKEN);
        }
        assertThat(Files.readString(Path.of("src/main/resources/logback.xml"))).as("the log pattern uses them")
                .contains("%redactedMsg").contains("%redactedEx").doesNotContain("%msg").doesNotContain("%ex{");
    }

    private AppConfig config() throws Exception {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("database").put("url", "jdbc:sqlite:" + dir.resolve("tasks.db"));
        root.putObject("runtime").put("tickMillis", 100).put("drainSeconds", 1);
        ObjectNode server = root.putObject("mcpServers").putObject("up");
        server.put("url", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/mcp");
        server.putObject("headers").put("Authorization", "Bearer ${env:UP_TOKEN}");
        return new ConfigLoader(Map.of("UP_TOKEN", TOKEN)::get, dir).parse("redaction.json",
                JSON.writeValueAsString(root));
    }
}
