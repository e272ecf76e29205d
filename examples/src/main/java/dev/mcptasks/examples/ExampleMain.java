package dev.mcptasks.examples;

import dev.mcptasks.adapters.postgres.PostgresSettings;
import dev.mcptasks.domain.StrictJson;
import dev.mcptasks.domain.TaskStatus;
import dev.mcptasks.examples.CompletionCollector.Completion;
import dev.mcptasks.ports.repository.TaskRecord;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the {@link CustomDeployment} once: submits a tool call to the MCP server and a SHA-256 of its arguments to the
 * digest driver, waits for both through the {@link CompletionCollector} and prints one line per task.
 * Usage: {@code ExampleMain <jdbc-url> <user> <mcp-endpoint> <tool> <arguments-json>}, the database password (if
 * any) in {@value #PASSWORD_ENV}. Exit code 0 when both tasks completed, 1 otherwise, 2 for a usage error.
 */
public final class ExampleMain {
    static final String PASSWORD_ENV = "MCP_TASKS_EXAMPLE_PG_PASSWORD";
    static final String USAGE = "usage: ExampleMain <jdbc-url> <user> <mcp-endpoint> <tool> <arguments-json>"
            + " (password in " + PASSWORD_ENV + ")";

    private ExampleMain() {}

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(List.of(args), System.getenv(PASSWORD_ENV), Duration.ofMinutes(10), System.out));
    }

    /**
     * @param wait how long to wait for each task; a task still running then is reported and left in the store, where
     *     the next worker on the same database finishes it
     */
    static int run(List<String> args, String password, Duration wait, PrintStream out) throws InterruptedException {
        if (args.size() != 5) {
            out.println(USAGE);
            return 2;
        }
        CompletionCollector completions = new CompletionCollector();
        try (CustomDeployment deployment = CustomDeployment.start(
                PostgresSettings.of(args.get(0), args.get(1), password), URI.create(args.get(2)), completions)) {
            List<TaskRecord> submitted = List.of(
                    deployment.tasks().submit(CustomDeployment.UPSTREAM, args.get(3), args.get(4)),
                    deployment.tasks().submit(CustomDeployment.LOCAL, "sha256",
                            StrictJson.write(StrictJson.object("text", args.get(4)))));
            boolean allCompleted = true;
            for (TaskRecord task : submitted) {
                String line = task.id() + " " + task.definition().serverName() + "/" + task.definition().toolName();
                try {
                    Completion end = completions.completion(task.id()).get(wait.toMillis(), TimeUnit.MILLISECONDS);
                    TaskRecord row = deployment.tasks().find(task.id()).orElseThrow();
                    out.println(line + " " + end.status().wireName() + " "
                            + (end.status() == TaskStatus.COMPLETED ? row.state().resultJson() : end.error()));
                    allCompleted &= end.status() == TaskStatus.COMPLETED;
                } catch (TimeoutException e) {
                    out.println(line + " not finished within " + wait + "; it stays in the store");
                    allCompleted = false;
                } catch (ExecutionException e) {
                    throw new IllegalStateException("the completion of " + task.id() + " failed", e.getCause());
                }
            }
            return allCompleted ? 0 : 1;
        } catch (RuntimeException e) {
            // bad arguments, an unreachable database, an unknown server: one line naming the cause, no stack trace
            out.println("example failed: " + e.getMessage());
            return 1;
        }
    }
}
