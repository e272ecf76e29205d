package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.testkit.ManualClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs the HTTP gateway over a fake dispatcher answering initialize, ping and tools/list, plus the conformance suite's
 * {@code test_reconnection} tool (answered after two seconds, so that its POST stream is closed for polling after
 * 300 ms and the client must resume with {@code Last-Event-ID}), for
 * {@code run-conformance.sh server --url <printed url> --scenario <name>}. Arguments: the port (default ephemeral), and
 * optionally {@code slow-list}.
 * Not a test: run it by hand; it serves until killed.
 */
public final class ConformanceMain {
    private ConformanceMain() {}

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        FakeDispatcher dispatcher = new FakeDispatcher();
        dispatcher.answer("ping", request -> CompletableFuture.completedFuture(
                Optional.of(FakeDispatcher.result(request, JsonNodeFactory.instance.objectNode()))));
        // With "slow-list", tools/list answers after half a second, so that every answer is an SSE stream.
        long listDelay = args.length > 1 && "slow-list".equals(args[1]) ? 500 : 0;
        dispatcher.answer("tools/list", request -> CompletableFuture.supplyAsync(() -> {
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            ObjectNode tool = result.putArray("tools").addObject();
            tool.put("name", "test_reconnection");
            tool.put("description", "answers after two seconds");
            tool.putObject("inputSchema").put("type", "object");
            return Optional.of(FakeDispatcher.result(request, result));
        }, CompletableFuture.delayedExecutor(listDelay, TimeUnit.MILLISECONDS)));
        dispatcher.answer("tools/call", request -> CompletableFuture.supplyAsync(() -> {
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            result.putArray("content").addObject().put("type", "text").put("text", "reconnected");
            return Optional.of(FakeDispatcher.result(request, result));
        }, CompletableFuture.delayedExecutor(2, TimeUnit.SECONDS)));
        GatewaySettings settings = GatewaySettings.defaults().withBind("127.0.0.1", port).withStreaming(
                new GatewaySettings.Streaming(Duration.ofMillis(100), Duration.ofSeconds(15), Duration.ofMillis(500),
                        Duration.ofMillis(300)));
        // a clock that never moves: no session of a conformance run times out
        HttpGateway gateway = HttpGateway.start(settings, dispatcher, new ManualClock());
        Runtime.getRuntime().addShutdownHook(new Thread(gateway::close));
        System.out.println(gateway.endpoint());
        new CountDownLatch(1).await();
    }
}
