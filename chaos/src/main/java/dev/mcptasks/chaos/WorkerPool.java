package dev.mcptasks.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The serve processes: a fixed number of slots, each running one incarnation at a time ({@code bin/mcp-tasks serve}
 * as {@code java -jar app/target/mcp-tasks.jar serve}, its own JVM). Each incarnation has its own tag
 * ({@code w<slot>.<generation>}), used as its worker id, its MCP {@code X-Client-Tag} header and (PostgreSQL) its
 * connection's application name, so the server's call log and the write audit name it. An incarnation that exits
 * without being told to is a violation, and is restarted.
 */
final class WorkerPool {
    static final String SERVER = "ref";
    static final long STARTUP_MS = 30_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One slot and its current incarnation. */
    static final class Slot {
        final int index;
        int generation;
        String tag;
        Process process;
        boolean stopped;
        boolean exitExpected;

        Slot(int index) {
            this.index = index;
        }
    }

    private final ProcessControl processes;
    private final Path appJar;
    private final Path dir;
    private final ChaosStore store;
    private final URI endpoint;
    private final ChaosProfile profile;
    private final FaultLog faults;
    private final List<Slot> slots = new ArrayList<>();
    private final List<Violation> violations = new CopyOnWriteArrayList<>();
    private volatile boolean restartOnExit = true;

    WorkerPool(ProcessControl processes, Path appJar, Path dir, ChaosStore store, URI endpoint, ChaosProfile profile,
            FaultLog faults) {
        this.processes = processes;
        this.appJar = appJar;
        this.dir = dir;
        this.store = store;
        this.endpoint = endpoint;
        this.profile = profile;
        this.faults = faults;
    }

    /** The configuration every process of the run shares, with {@code clientName} in its per-process parts. */
    static ObjectNode config(ChaosStore store, URI endpoint, ChaosProfile profile, String clientName) {
        ObjectNode root = JSON.createObjectNode();
        root.set("database", store.databaseConfig(clientName));
        root.putObject("runtime").put("leaseSeconds", profile.leaseSeconds()).put("pollIntervalSeconds", 1)
                .put("maxConcurrentControlCalls", 8).put("maxBackoffSeconds", 3)
                .put("drainSeconds", profile.drainSeconds());
        ObjectNode server = root.putObject("mcpServers").putObject(SERVER);
        server.put("url", endpoint.toString()).put("sessionBound", false).put("toolCallTimeoutSeconds", 20)
                .put("submitPolicy", "atMostOnce");
        server.putObject("headers").put("X-Client-Tag", clientName);
        return root;
    }

    synchronized void start(int count) throws IOException {
        for (int i = 1; i <= count; i++) {
            Slot slot = new Slot(i);
            slots.add(slot);
            launch(slot);
        }
    }

    /** Slots whose incarnation runs and may take a fault now. */
    synchronized List<Slot> faultable() {
        return slots.stream().filter(slot -> slot.process != null && slot.process.isAlive() && !slot.stopped
                && !slot.exitExpected).toList();
    }

    synchronized int incarnations() {
        return slots.stream().mapToInt(slot -> slot.generation).sum();
    }

    List<Violation> violations() {
        return List.copyOf(violations);
    }

    void kill(Slot slot) throws IOException, InterruptedException {
        Process process;
        synchronized (this) {
            if (slot.exitExpected || slot.process == null || !slot.process.isAlive()) {
                return;
            }
            slot.exitExpected = true;
            process = slot.process;
            faults.record(new FaultEvent(slot.tag, FaultEvent.Kind.KILL, System.currentTimeMillis(), ""));
            process.destroyForcibly();
        }
        process.waitFor(10, TimeUnit.SECONDS);
    }

    void stop(Slot slot) {
        synchronized (this) {
            if (slot.exitExpected || slot.stopped || slot.process == null || !slot.process.isAlive()) {
                return;
            }
            slot.stopped = true;
            faults.record(new FaultEvent(slot.tag, FaultEvent.Kind.STOP, System.currentTimeMillis(), ""));
            ProcessControl.signal(slot.process.pid(), "STOP");
        }
    }

    synchronized void cont(Slot slot) {
        if (slot.stopped) {
            ProcessControl.signal(slot.process.pid(), "CONT");
            faults.record(new FaultEvent(slot.tag, FaultEvent.Kind.CONT, System.currentTimeMillis(), ""));
            slot.stopped = false;
        }
    }

    /**
     * SIGTERM and wait for the drain; a hang or a non-zero exit is a violation (then SIGKILL). A JVM still starting
     * has not installed the product's signal handling yet (it would end 143 with nothing to drain), so the signal
     * waits until the worker has registered itself in the store's workers table (at most {@link #STARTUP_MS}).
     */
    void term(Slot slot) throws InterruptedException {
        Process process;
        String tag;
        synchronized (this) {
            if (slot.process == null || !slot.process.isAlive() || slot.exitExpected) {
                return;
            }
            // bound to this incarnation from now on: no other fault picks it, and a restart does not replace it
            slot.exitExpected = true;
            process = slot.process;
            tag = slot.tag;
        }
        awaitRegistered(tag);
        synchronized (this) {
            if (!process.isAlive()) {
                return;
            }
            faults.record(new FaultEvent(tag, FaultEvent.Kind.TERM, System.currentTimeMillis(), ""));
            process.destroy();
        }
        long boundSeconds = profile.drainSeconds() + 15L;
        if (!process.waitFor(boundSeconds, TimeUnit.SECONDS)) {
            violations.add(new Violation("shutdown_hang", tag, "did not exit within " + boundSeconds
                    + " s of SIGTERM (drainSeconds " + profile.drainSeconds() + "); killed"));
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        } else if (process.exitValue() != 0) {
            violations.add(new Violation("shutdown_exit", tag, "exited " + process.exitValue() + " after SIGTERM"));
        }
    }

    /** Waits until every slot's current incarnation has registered (bounded by {@link #STARTUP_MS} each). */
    void awaitAllRegistered() throws InterruptedException {
        for (Slot slot : snapshot()) {
            String tag;
            synchronized (this) {
                tag = slot.tag;
            }
            awaitRegistered(tag);
        }
    }

    private void awaitRegistered(String tag) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STARTUP_MS);
        while (System.nanoTime() < deadline) {
            // serve --worker-id TAG registers as TAG:host:pid:random
            try (Connection connection = store.connect();
                    PreparedStatement query = connection.prepareStatement("SELECT id FROM workers")) {
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        if (AuditChecks.writtenBy(tag, rows.getString(1))) {
                            return;
                        }
                    }
                }
            } catch (SQLException e) {
                // the store is busy; ask again
            }
            Thread.sleep(250);
        }
    }

    /** Starts a new incarnation in a slot whose process ended; nothing once the final SIGTERMs have begun. */
    synchronized void restart(Slot slot) throws IOException {
        if (!restartOnExit || (slot.process != null && slot.process.isAlive())) {
            return;
        }
        launch(slot);
    }

    /** Ends the faults: every stopped incarnation continues, every dead slot gets a new one. */
    void healAll() throws IOException {
        for (Slot slot : snapshot()) {
            cont(slot);
            restart(slot);
        }
    }

    /** SIGTERM to every incarnation at once, then the same exit checks as {@link #term}. */
    void termAll() throws InterruptedException {
        synchronized (this) {
            restartOnExit = false;
        }
        List<Thread> waiting = new ArrayList<>();
        for (Slot slot : snapshot()) {
            cont(slot);
            if (slot.process != null && slot.process.isAlive()) {
                Thread thread = new Thread(() -> {
                    try {
                        term(slot);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "chaos-term-" + slot.tag);
                thread.start();
                waiting.add(thread);
            }
        }
        for (Thread thread : waiting) {
            thread.join();
        }
    }

    private synchronized List<Slot> snapshot() {
        return List.copyOf(slots);
    }

    private void launch(Slot slot) throws IOException {
        slot.generation++;
        slot.tag = "w" + slot.index + "." + slot.generation;
        slot.stopped = false;
        slot.exitExpected = false;
        Path config = dir.resolve("config-" + slot.tag + ".json");
        Files.writeString(config, JSON.writerWithDefaultPrettyPrinter()
                .writeValueAsString(config(store, endpoint, profile, slot.tag)));
        Process process = processes.startJava(appJar, List.of("--config", config.toString(), "serve",
                "--worker-id", slot.tag), dir.resolve("serve-" + slot.tag + ".log"),
                Map.of("MCP_TASKS_LOG_LEVEL", "INFO"));
        slot.process = process;
        String tag = slot.tag;
        faults.record(new FaultEvent(tag, FaultEvent.Kind.START, System.currentTimeMillis(), "pid " + process.pid()));
        process.onExit().thenAccept(ended -> exited(slot, tag, ended));
    }

    private void exited(Slot slot, String tag, Process ended) {
        boolean unexpected;
        synchronized (this) {
            faults.record(new FaultEvent(tag, FaultEvent.Kind.EXIT, System.currentTimeMillis(),
                    "exit " + ended.exitValue()));
            unexpected = tag.equals(slot.tag) && !slot.exitExpected;
        }
        if (unexpected) {
            violations.add(new Violation("unexpected_exit", tag, "exited " + ended.exitValue()
                    + " without a signal from the harness (see serve-" + tag + ".log)"));
            if (restartOnExit) {
                try {
                    restart(slot);
                } catch (IOException e) {
                    violations.add(new Violation("harness", tag, "restart failed: " + e.getMessage()));
                }
            }
        }
    }
}
