package dev.mcptasks.app.demo;

import java.util.ArrayList;
import java.util.List;

/**
 * The demo's ~30 tasks of mixed behaviour, steered through the reference server's {@code work} arguments: fast,
 * slow, failing, {@code input_required}, status calls slower than the lease, tasks the user cancels (one of them with
 * a cancel call slower than the lease, one before it was ever sent), and jobs run through ordinary tools.
 */
final class DemoScenario {
    static final String STDIO = "stdio-ref";
    static final String HTTP = "http-ref";
    static final String JOBS = "http-jobs";

    /** When the simulated user cancels the task. */
    enum Cancel { NEVER, BEFORE_SENT, WHILE_RUNNING }

    /** One task to submit: its group in the summary, where it runs and what it does. */
    record DemoTask(String group, String server, String tool, String arguments, Cancel cancel) {}

    private DemoScenario() {}

    static List<DemoTask> tasks() {
        List<DemoTask> tasks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            tasks.add(work("fast", i % 2 == 0 ? STDIO : HTTP,
                    "{\"durationMs\": " + (300 + 100 * i) + ", \"result\": \"fast result " + i + "\"}"));
        }
        for (int i = 0; i < 4; i++) {
            tasks.add(work("slow (7 s, longer than the lease)", i % 2 == 0 ? STDIO : HTTP,
                    "{\"durationMs\": 7000, \"result\": \"slow result " + i + "\"}"));
        }
        for (int i = 0; i < 4; i++) {
            tasks.add(work("failing", i % 2 == 0 ? STDIO : HTTP,
                    "{\"durationMs\": 400, \"fail\": true, \"failMessage\": \"simulated failure " + i + "\"}"));
        }
        for (int i = 0; i < 3; i++) {
            tasks.add(work("input_required, then completes", i == 0 ? STDIO : HTTP,
                    "{\"inputRequiredMs\": 1500, \"durationMs\": 500, \"result\": \"answered " + i + "\"}"));
        }
        for (int i = 0; i < 3; i++) {
            tasks.add(work("status calls slower than the lease", HTTP,
                    "{\"durationMs\": 500, \"statusDelayMs\": 5000, \"result\": \"slow status " + i + "\"}"));
        }
        tasks.add(new DemoTask("cancelled by the user while running", STDIO, "work",
                "{\"durationMs\": 600000}", Cancel.WHILE_RUNNING));
        tasks.add(new DemoTask("cancelled by the user while running", HTTP, "work",
                "{\"durationMs\": 600000}", Cancel.WHILE_RUNNING));
        tasks.add(new DemoTask("cancelled by the user while running", HTTP, "work",
                "{\"durationMs\": 600000, \"cancelDelayMs\": 5000}", Cancel.WHILE_RUNNING));
        for (int i = 0; i < 2; i++) {
            tasks.add(new DemoTask("cancelled before it was sent", HTTP, "work", "{\"durationMs\": 500}",
                    Cancel.BEFORE_SENT));
        }
        for (int i = 0; i < 3; i++) {
            tasks.add(new DemoTask("ordinary tools (submit/status/cancel jobs)", JOBS, "submit_job",
                    "{\"durationMs\": 800, \"result\": \"job result " + i + "\"}", Cancel.NEVER));
        }
        return tasks;
    }

    private static DemoTask work(String group, String server, String arguments) {
        return new DemoTask(group, server, "work", arguments, Cancel.NEVER);
    }
}
