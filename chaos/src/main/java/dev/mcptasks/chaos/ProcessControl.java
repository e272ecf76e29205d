package dev.mcptasks.chaos;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Starts the run's processes (each JVM marked with {@code -Dmcp.tasks.chaos.run=ID}), sends them signals by PID,
 * and kills whatever is left by PID at the end, also when the harness is interrupted (a shutdown hook). Never kills
 * by name: only processes started here, or carrying this run's marker, are touched.
 */
public final class ProcessControl implements AutoCloseable {
    private final String runId;
    private final List<String> javaOptions;
    private final List<Process> started = new CopyOnWriteArrayList<>();
    private final Thread hook = new Thread(this::killAll, "chaos-cleanup");

    public ProcessControl(String runId, List<String> javaOptions) {
        this.runId = runId;
        this.javaOptions = List.copyOf(javaOptions);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The system property that marks every JVM of this run, for the orphan check. */
    public String marker() {
        return "-Dmcp.tasks.chaos.run=" + runId;
    }

    /** Starts {@code java <options> -jar jar args...}, output to {@code log}. */
    public Process startJava(Path jar, List<String> args, Path log, Map<String, String> environment)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        command.add(marker());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        started.add(process);
        return process;
    }

    /** Starts a JVM whose stdout the caller reads (stderr to {@code log}). */
    public Process startJavaPiped(Path jar, List<String> args, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(javaOptions);
        command.add(marker());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        started.add(process);
        return process;
    }

    /** Sends {@code signal} (STOP, CONT, TERM, KILL) to {@code pid}. */
    public static void signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot send SIG" + signal + " to " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every process of this run still alive: those started here, and any JVM carrying the run's marker. */
    public List<ProcessHandle> survivors() {
        List<ProcessHandle> alive = new ArrayList<>();
        for (Process process : started) {
            if (process.isAlive()) {
                alive.add(process.toHandle());
            }
        }
        ProcessHandle.allProcesses()
                .filter(handle -> handle.pid() != ProcessHandle.current().pid())
                .filter(handle -> handle.info().commandLine().orElse("").contains(marker()))
                .filter(handle -> alive.stream().noneMatch(known -> known.pid() == handle.pid()))
                .forEach(alive::add);
        return alive;
    }

    /** SIGCONT then SIGKILL to every survivor, by PID; waits for them to end. */
    public void killAll() {
        for (ProcessHandle handle : survivors()) {
            signal(handle.pid(), "CONT");
            handle.destroyForcibly();
        }
        for (Process process : started) {
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs anyway
        }
    }
}
