package dev.mcptasks.app.cli;

import dev.mcptasks.app.assembly.Application;
import dev.mcptasks.app.config.AppConfig;
import dev.mcptasks.core.service.AnswerRejectedException;
import dev.mcptasks.core.service.TaskService;
import dev.mcptasks.domain.TaskId;
import dev.mcptasks.ports.repository.AnswerOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code answer ID KEY --json JSON | --file PATH}: stores a user's answer to one input request of a task in
 * {@code input_required}; the worker that serves the task delivers it. Exit 0 stored; 1 the task cannot take it now
 * (not waiting, its generation takes no answers from mcp-tasks, or an answer to the key is already waiting); 2 a bad
 * key or answer; 4 no such task; 5 store unavailable.
 */
@Command(name = "answer", description = "Answer one input request of a task in input_required (2026-07-28 tasks).")
final class AnswerCommand extends ClientCommand {
    @Parameters(index = "0", paramLabel = "ID")
    String id;

    @Parameters(index = "1", paramLabel = "KEY", description = "The input request's key (see 'show ID').")
    String key;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    static final class Source {
        @Option(names = "--json", paramLabel = "JSON", required = true,
                description = "The bare answer, a JSON object, e.g. {\"action\":\"accept\",\"content\":{\"ok\":true}}.")
        String json;

        @Option(names = "--file", paramLabel = "PATH", required = true,
                description = "Read the answer (a JSON object) from this file.")
        Path file;
    }

    @Override
    int run(Application app, AppConfig config, CliContext context) {
        String answer;
        if (source.json != null) {
            answer = source.json;
        } else {
            try {
                answer = Files.readString(source.file, StandardCharsets.UTF_8);
            } catch (IOException | InvalidPathException | java.io.UncheckedIOException e) {
                context.err().println("mcp-tasks: cannot read the answer from " + source.file + ": " + e);
                return ExitCodes.USAGE;
            }
        }
        AnswerOutcome outcome;
        try {
            outcome = app.get(TaskService.class).answer(TaskId.of(id), key, answer);
        } catch (AnswerRejectedException e) {
            context.err().println("mcp-tasks: " + e.getMessage());
            return e.isBadInput() ? ExitCodes.USAGE : ExitCodes.FAILED;
        }
        return switch (outcome) {
            case ACCEPTED -> {
                context.out().println("answer to '" + key + "' stored for " + id
                        + "; the worker that serves the task delivers it");
                yield ExitCodes.OK;
            }
            case DUPLICATE -> {
                context.err().println("mcp-tasks: an answer to '" + key + "' of task " + id + " is already waiting"
                        + " to be delivered; the first one stands (this one was not stored)");
                yield ExitCodes.FAILED;
            }
            case NOT_WAITING -> {
                context.err().println("mcp-tasks: task " + id + " stopped waiting for input; the answer was not"
                        + " stored");
                yield ExitCodes.FAILED;
            }
            case NOT_FOUND -> {
                context.err().println("mcp-tasks: no such task: " + id);
                yield ExitCodes.NOT_FOUND;
            }
        };
    }
}
