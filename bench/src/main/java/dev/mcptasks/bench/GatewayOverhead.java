package dev.mcptasks.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.adapters.gateway.FrontDoor;
import dev.mcptasks.adapters.gateway.GatewaySettings;
import dev.mcptasks.adapters.gateway.HttpGateway;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.assembly.WorkerProcess;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.domain.WorkerId;
import dev.mcptasks.ports.Clock;
import dev.mcptasks.reference.ReferenceServer;
import dev.mcptasks.reference.ReferenceServerOptions;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the gateway adds to a plain tool call (issue 23): the reference server's {@code echo} called directly and
 * through {@code mcp-tasks gateway}, with its in-process worker and with a separate worker on the same store, in one
 * run. Sequential calls give the latency (p50, p99); {@value #CALLERS} concurrent callers give calls per second. The
 * same minimal client calls both sides, after the same warm-up, so only the gateway's own cost differs.
 */
final class GatewayOverhead {
    static final int CALLERS = 16;
    /**
     * Calls made on each side before it is measured, so both are measured compiled, as the burn-downs are. The
     * gateway's path (HTTP, JSON, the store, the worker) is long: with 20 warm-up calls its p50 added read 17 ms on
     * SQLite where the steady state is under 1 ms.
     */
    static final int WARM_UP_CALLS = 1_500;
    /** Calls each concurrent caller makes, on each side, before the concurrent rate is measured. */
    static final int CONCURRENT_WARM_UP_CALLS = 60;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BenchDatabase db;
    private final Path dir;

    GatewayOverhead(BenchDatabase db, Path dir) {
        this.db = db;
        this.dir = dir;
    }

    /** Latency over {@code samples} sequential calls and rate over {@code CALLERS} x {@code perCaller} calls. */
    List<Figure> run(int samples, int perCaller) throws Exception {
        Map<String, Side> through = new LinkedHashMap<>();
        Side direct;
        try (ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults())) {
            URI upstream = server.startHttp(0);
            for (boolean inProcess : new boolean[] {true, false}) {
                String name = inProcess ? "gw_in" : "gw_sep";
                AppConfig config = config(name, upstream);
                Application gatewayApp = AppRoot.production().openGateway(config,
                        inProcess ? WorkerId.of("bench-gateway") : null);
                Application workerApp = inProcess ? null : AppRoot.production().openWorker(config,
                        WorkerId.of("bench-worker"));
                WorkerProcess worker = new WorkerProcess(inProcess ? gatewayApp : workerApp);
                HttpGateway gateway = null;
                try {
                    worker.start();
                    gateway = HttpGateway.start(gatewayApp.get(GatewaySettings.class).withBind("127.0.0.1", 0),
                            gatewayApp.get(FrontDoor.class), gatewayApp.get(Clock.class));
                    through.put(inProcess ? "gateway, in-process worker" : "gateway, separate worker",
                            measure(gateway.endpoint(), "ref__echo", samples, perCaller, () -> db.settle(name)));
                } finally {
                    if (gateway != null) {
                        gateway.close();
                    }
                    worker.stop();
                    if (workerApp != null) {
                        workerApp.close();
                    }
                    gatewayApp.close();
                }
            }
            // the direct side last: the client's and the reference server's code are then compiled by every call
            // before it (measured first, in the bench's fresh JVM, it read a quarter of its later rate)
            direct = measure(upstream, "echo", samples, perCaller, () -> { });
        }
        List<Figure> figures = new ArrayList<>();
        figures.add(figure("direct call", direct, direct));
        Side anchor = direct;
        through.forEach((subject, side) -> figures.add(figure(subject, side, anchor)));
        return figures;
    }

    private AppConfig config(String name, URI upstream) throws Exception {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode database = root.putObject("database");
        db.appDatabase(name).forEach(database::put);
        root.putObject("mcpServers").putObject("ref").put("url", upstream.toString());
        return new ConfigLoader(key -> null, dir).parse(name + ".json", JSON.writeValueAsString(root));
    }

    /** One side's figures: latencies in ms (sorted) and the concurrent rate. */
    private record Side(double[] latenciesMs, double callsPerSecond) {
        double percentile(double p) {
            return latenciesMs[Math.min(latenciesMs.length - 1, (int) Math.floor(p * latenciesMs.length))];
        }
    }

    /** Measures {@code tool} at {@code endpoint}; {@code warmedUp} runs after the sequential warm-up. */
    private static Side measure(URI endpoint, String tool, int samples, int perCaller, Runnable warmedUp)
            throws Exception {
        RpcClient client = RpcClient.open(endpoint);
        for (int i = 0; i < WARM_UP_CALLS; i++) {
            client.call(tool, text("warm-up " + i));
        }
        warmedUp.run();
        double[] latencies = new double[samples];
        for (int i = 0; i < samples; i++) {
            long start = System.nanoTime();
            client.call(tool, text("call " + i));
            latencies[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(latencies);
        List<RpcClient> callers = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            callers.add(RpcClient.open(endpoint));
        }
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        try {
            // the concurrent path (16 connections, contended locks and queues) is warmed as the sequential one was
            concurrently(pool, callers, tool, Math.max(perCaller, CONCURRENT_WARM_UP_CALLS), "warm-up ");
            long start = System.nanoTime();
            concurrently(pool, callers, tool, perCaller, "concurrent ");
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Side(latencies, CALLERS * perCaller / seconds);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Each caller makes {@code calls} calls, all callers at once; returns when all are answered. */
    private static void concurrently(ExecutorService pool, List<RpcClient> callers, String tool, int calls,
            String label) throws Exception {
        List<Future<?>> runs = new ArrayList<>();
        for (RpcClient caller : callers) {
            runs.add(pool.submit(() -> {
                for (int i = 0; i < calls; i++) {
                    caller.call(tool, text(label + i));
                }
                return null;
            }));
        }
        for (Future<?> run : runs) {
            run.get();
        }
    }

    private static ObjectNode text(String text) {
        return JSON.createObjectNode().put("text", text);
    }

    private Figure figure(String subject, Side side, Side direct) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("p50_ms", McpTasksBurnDown.round(side.percentile(0.5)));
        details.put("p99_ms", McpTasksBurnDown.round(side.percentile(0.99)));
        details.put("direct_p50_ms", McpTasksBurnDown.round(direct.percentile(0.5)));
        details.put("calls_per_second_" + CALLERS + "_callers", McpTasksBurnDown.round(side.callsPerSecond()));
        details.put("direct_calls_per_second", McpTasksBurnDown.round(direct.callsPerSecond()));
        details.put("rate_ratio", McpTasksBurnDown.round(side.callsPerSecond() / direct.callsPerSecond()));
        details.put("samples", side.latenciesMs().length);
        return new Figure(db.key(), "plain call overhead", subject,
                McpTasksBurnDown.round(side.percentile(0.5) - direct.percentile(0.5)), "ms p50 added", details);
    }
}
