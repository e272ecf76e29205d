package dev.mcptasks.app.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.DeadLetterQuery;
import dev.mcptasks.ports.repository.ReplayOutcome;
import dev.mcptasks.ports.repository.TaskRecord;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code notifications replay TASK_ID | --all}: makes dead letters deliverable again, due now (the store's
 * {@code replayDeadLetter}, through the task service, which audits each replay as an operator action: a fresh failure budget, the version that died unless a newer event supersedes it). A task
 * whose notification is not a dead letter (replayed already, delivered, a newer event pending) is left alone and
 * said so; that is no error.
 */
@Command(name = "replay", description = "Replay one dead-lettered notification, or all of them.")
final class NotificationsReplayCommand implements Callable<Integer> {
    /** Dead letters read per page by {@code --all}. */
    static final int PAGE = 100;

    @ParentCommand
    NotificationsCommand parent;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Target target;

    @Option(names = "--json", description = "Print {\"id\": ..., \"outcome\": ...}; with --all an array of them.")
    boolean json;

    /** Exactly one of a task id and {@code --all}. */
    static final class Target {
        @Parameters(index = "0", paramLabel = "TASK_ID", description = "The task whose dead letter to replay.")
        String id;

        @Option(names = "--all", required = true, description = "Replay every dead letter.")
        boolean all;
    }

    @Override
    public Integer call() throws Exception {
        return ClientCommand.openAndRun(parent.root, this::run);
    }

    private int run(Application app, AppConfig config, CliContext context) {
        TaskService tasks = app.get(TaskService.class);
        return target.all ? replayAll(tasks, context) : replayOne(tasks, TaskId.of(target.id), context);
    }

    private int replayOne(TaskService store, TaskId id, CliContext context) {
        Optional<TaskRecord> before = store.find(id);
        ReplayOutcome outcome = before.isEmpty() ? ReplayOutcome.NOT_FOUND : store.replayDeadLetter(id);
        if (json) {
            context.out().println(TaskJson.write(outcomeOf(id, outcome)));
        } else if (outcome == ReplayOutcome.REPLAYED) {
            context.out().println(replayedLine(before.get()));
        } else if (outcome == ReplayOutcome.NOT_DEAD) {
            // read again: the row may have moved since the read before the replay
            String status = store.find(id).map(task -> task.outbox().status().wireName()).orElse("gone");
            context.out().println(id.value() + " has no dead letter to replay (notification " + status + ")");
        }
        if (outcome == ReplayOutcome.NOT_FOUND) {
            context.err().println("mcp-tasks: no such task: " + id.value());
            return ExitCodes.NOT_FOUND;
        }
        return ExitCodes.OK;
    }

    /**
     * Pages through the dead letters with the store's cursor, replaying each. A replayed letter that dies again while
     * this runs dies later than the cursor, so it is not met (and replayed) twice.
     */
    private int replayAll(TaskService store, CliContext context) {
        ArrayNode replayed = TaskJson.MAPPER.createArrayNode();
        int count = 0;
        DeadLetterQuery query = DeadLetterQuery.first(PAGE);
        List<TaskRecord> page;
        do {
            page = store.deadLetters(query);
            for (TaskRecord task : page) {
                // NOT_DEAD: replayed by someone else, or superseded by a newer event, since the page was read
                if (store.replayDeadLetter(task.id()) == ReplayOutcome.REPLAYED) {
                    count++;
                    if (json) {
                        replayed.add(outcomeOf(task.id(), ReplayOutcome.REPLAYED));
                    } else {
                        context.out().println(replayedLine(task));
                    }
                }
            }
            if (!page.isEmpty()) {
                query = query.after(page.get(page.size() - 1));
            }
        } while (page.size() == PAGE);
        if (json) {
            context.out().println(TaskJson.write(replayed));
        } else {
            context.out().println("replayed " + count + " dead letters");
        }
        return ExitCodes.OK;
    }

    private static ObjectNode outcomeOf(TaskId id, ReplayOutcome outcome) {
        return TaskJson.MAPPER.createObjectNode().put("id", id.value())
                .put("outcome", outcome.name().toLowerCase(Locale.ROOT));
    }

    private static String replayedLine(TaskRecord task) {
        return "replayed " + task.id().value() + " (" + task.definition().serverName() + "/"
                + task.definition().toolName() + ", event version " + task.outbox().dispatchVersion() + ")";
    }
}
