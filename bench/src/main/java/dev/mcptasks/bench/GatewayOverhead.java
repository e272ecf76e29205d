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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the gateway adds to a plain tool call (issue 23): an upstream's {@code echo} called directly, through a plain
 * HTTP relay that stores nothing ({@link PlainRelay}: what a second HTTP hop alone costs) and through
 * {@code mcp-tasks gateway}, with its in-process worker and with a separate worker on the same store, in one run.
 * The upstream is the reference server in this JVM (an echo that costs next to nothing: the hardest comparison) and,
 * with {@code --upstream}, an MCP server of the user's (server-everything, say) as well. {@value #CALLERS} concurrent
 * callers give calls per second, measured once they have warmed the side up ({@link Pace#rateWarmUp}); sequential calls
 * after them give the latency (p50, p99) of the compiled path. The same minimal client calls every side, after the
 * same warm-up, so only what stands between it and the upstream differs.
 */
final class GatewayOverhead {
    static final int CALLERS = 16;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * How long each side is called.
     *
     * @param warmUpCalls sequential calls before the concurrent ones (the store settles after them, see
     *     {@link BenchDatabase#settle})
     * @param samples sequential calls measured
     * @param rateWarmUp how long the concurrent callers call before their rate is measured: the gateway's path is long,
     *     and under 16 callers its rate still rose for some 40 s (from a third of its steady state) while the JIT
     *     compiled it; the direct call's settles within 10 s
     * @param rateWindow how long the concurrent rate is then measured
     */
    record Pace(int warmUpCalls, int samples, Duration rateWarmUp, Duration rateWindow) {
        static Pace of(boolean quick) {
            return quick ? new Pace(1_500, 100, Duration.ofSeconds(20), Duration.ofSeconds(5))
                    : new Pace(1_500, 400, Duration.ofSeconds(40), Duration.ofSeconds(10));
        }
    }

    /** An upstream MCP server with an {@code echo} tool; {@code label} names it in the figures ("" for the reference). */
    record Upstream(String label, URI endpoint) {}

    private final BenchDatabase db;
    private final Path dir;

    GatewayOverhead(BenchDatabase db, Path dir) {
        this.db = db;
        this.dir = dir;
    }

    /** Every side against the reference server, then against {@code external} when given. */
    List<Figure> run(Pace pace, Optional<URI> external) throws Exception {
        List<Figure> figures = new ArrayList<>();
        try (ReferenceServer server = new ReferenceServer(ReferenceServerOptions.defaults())) {
            figures.addAll(run(new Upstream("", server.startHttp(0)), pace));
        }
        if (external.isPresent()) {
            figures.addAll(run(new Upstream("upstream " + external.get(), external.get()), pace));
        }
        return figures;
    }

    private List<Figure> run(Upstream upstream, Pace pace) throws Exception {
        Map<String, Side> through = new LinkedHashMap<>();
        for (boolean inProcess : new boolean[] {true, false}) {
            String name = (inProcess ? "gw_in" : "gw_sep") + (upstream.label().isEmpty() ? "" : "_up");
            AppConfig config = config(name, upstream.endpoint());
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
                        measure(gateway.endpoint(), "ref__echo", pace, () -> db.settle(name)));
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
        try (PlainRelay relay = PlainRelay.start(upstream.endpoint(), CALLERS)) {
            through.put("plain HTTP relay, no store", measure(relay.endpoint(), "echo", pace, () -> { }));
        }
        // the direct side last: the client's code (and the reference server's) is then compiled by every call before
        // it (measured first, in the bench's fresh JVM, it read a quarter of its later rate)
        Side direct = measure(upstream.endpoint(), "echo", pace, () -> { });
        List<Figure> figures = new ArrayList<>();
        figures.add(figure("direct call", upstream, direct, direct));
        through.forEach((name, side) -> figures.add(figure(name, upstream, side, direct)));
        return figures;
    }

    private static String subject(String side, Upstream upstream) {
        return upstream.label().isEmpty() ? side : side + " (" + upstream.label() + ")";
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
    private static Side measure(URI endpoint, String tool, Pace pace, Runnable warmedUp) throws Exception {
        RpcClient client = RpcClient.open(endpoint);
        for (int i = 0; i < pace.warmUpCalls(); i++) {
            client.call(tool, text("warm-up " + i));
        }
        warmedUp.run();
        List<RpcClient> callers = new ArrayList<>();
        for (int i = 0; i < CALLERS; i++) {
            callers.add(RpcClient.open(endpoint));
        }
        ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
        AtomicLong calls = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (RpcClient caller : callers) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        caller.call(tool, text("concurrent " + i));
                        calls.incrementAndGet();
                    }
                    return null;
                }));
            }
            await(runs, pace.rateWarmUp().toNanos());
            long before = calls.get();
            long start = System.nanoTime();
            await(runs, pace.rateWindow().toNanos());
            double rate = (calls.get() - before) / ((System.nanoTime() - start) / 1e9);
            stop.set(true);
            for (Future<?> run : runs) {
                run.get();
            }
            // the latency last: by now the concurrent calls have compiled the side's whole path (after the sequential
            // warm-up alone the gateway's was still being compiled: its p50 added read up to 3 ms more on SQLite FULL
            // and PostgreSQL than measured here, the steady state). A caller's connection is warm; the warm-up
            // client's sat idle longer than the gateway keeps an idle connection (30 s) in the full run
            RpcClient sequential = callers.get(0);
            double[] latencies = new double[pace.samples()];
            for (int i = 0; i < pace.samples(); i++) {
                long begin = System.nanoTime();
                sequential.call(tool, text("call " + i));
                latencies[i] = (System.nanoTime() - begin) / 1e6;
            }
            Arrays.sort(latencies);
            return new Side(latencies, rate);
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
    }

    /** Waits {@code nanos}; a caller that failed ends the measurement with its failure. */
    private static void await(List<Future<?>> runs, long nanos) throws Exception {
        long deadline = System.nanoTime() + nanos;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            Thread.sleep(Math.min(100, Math.max(1, left / 1_000_000)));
            for (Future<?> run : runs) {
                if (run.isDone()) {
                    run.get();
                    throw new IllegalStateException("a concurrent caller stopped before the measurement ended");
                }
            }
        }
    }

    /** The arguments of both echoes: the reference server's takes {@code text}, server-everything's {@code message}. */
    private static ObjectNode text(String text) {
        return JSON.createObjectNode().put("text", text).put("message", text);
    }

    private Figure figure(String name, Upstream upstream, Side side, Side direct) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("side", name);
        details.put("upstream", upstream.label().isEmpty() ? "reference server (this JVM)" : upstream.endpoint()
                .toString());
        details.put("p50_ms", McpTasksBurnDown.round(side.percentile(0.5)));
        details.put("p99_ms", McpTasksBurnDown.round(side.percentile(0.99)));
        details.put("direct_p50_ms", McpTasksBurnDown.round(direct.percentile(0.5)));
        details.put("calls_per_second_" + CALLERS + "_callers", McpTasksBurnDown.round(side.callsPerSecond()));
        details.put("direct_calls_per_second", McpTasksBurnDown.round(direct.callsPerSecond()));
        details.put("rate_ratio", McpTasksBurnDown.round(side.callsPerSecond() / direct.callsPerSecond()));
        details.put("samples", side.latenciesMs().length);
        return new Figure(db.key(), "plain call overhead", subject(name, upstream),
                McpTasksBurnDown.round(side.percentile(0.5) - direct.percentile(0.5)), "ms p50 added", details);
    }
}
