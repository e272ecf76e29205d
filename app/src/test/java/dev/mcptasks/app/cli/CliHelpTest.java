package dev.mcptasks.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** Every command and sub-command answers {@code --help}, {@code -h} and {@code help CMD}, listing each option. */
class CliHelpTest {
    @TempDir
    Path dir;

    @Test
    void everyCommandAnswersHelpListingEveryOption() {
        CliHarness cli = new CliHarness(dir);
        List<List<String>> paths = new ArrayList<>();
        walk(new CommandLine(new McpTasksCommand(null)), new ArrayList<>(), paths);
        assertThat(paths).hasSizeGreaterThan(13);
        for (List<String> path : paths) {
            for (String flag : List.of("--help", "-h")) {
                List<String> args = new ArrayList<>(path);
                args.add(flag);
                assertThat(cli.run(args.toArray(String[]::new))).as(String.join(" ", args)).isZero();
                assertThat(cli.out()).as(String.join(" ", args)).contains("Usage: mcp-tasks " + String.join(" ", path));
            }
        }
        assertThat(cli.run("help", "serve")).isZero();
        assertThat(cli.out()).contains("Usage: mcp-tasks serve");
    }

    @Test
    void helpListsEveryOptionWithADescription() {
        CliHarness cli = new CliHarness(dir);
        assertThat(cli.run("workers", "--help")).isZero();
        assertThat(cli.out()).contains("-h, --help").contains("--config");
    }

    @Test
    void bareCommandPrintsUsageToStderrAndExitsTwo() {
        CliHarness cli = new CliHarness(dir);
        assertThat(cli.run()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.out()).isEmpty();
        assertThat(cli.err()).contains("Usage: mcp-tasks");
    }

    @Test
    void completionCoversEveryCommandAndOption() {
        CliHarness cli = new CliHarness(dir);
        assertThat(cli.run("completion")).isZero();
        assertThat(cli.out()).startsWith("#!/usr/bin/env bash").contains("complete -F")
                .contains("serve", "gateway", "notifications", "replay", "--status", "--ttl-ms", "--no-worker");
    }

    private static void walk(CommandLine line, List<String> path, List<List<String>> out) {
        if (!path.isEmpty()) {
            out.add(path);
        }
        for (var entry : line.getSubcommands().entrySet()) {
            if (entry.getValue().getCommandSpec().aliases().length > 0
                    && !entry.getKey().equals(entry.getValue().getCommandName())) {
                continue;
            }
            List<String> next = new ArrayList<>(path);
            next.add(entry.getKey());
            walk(entry.getValue(), next, out);
        }
        for (OptionSpec option : line.getCommandSpec().options()) {
            if (option.hidden()) {
                continue;
            }
            assertThat(option.description()).as(String.join(" ", path) + " " + option.longestName()).isNotEmpty();
        }
    }
}
