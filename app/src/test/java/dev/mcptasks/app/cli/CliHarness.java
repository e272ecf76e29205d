package dev.mcptasks.app.cli;

import com.google.inject.Module;
import dev.mcptasks.adapters.stdio.StdioTransportModule;
import dev.mcptasks.app.assembly.AppRoot;
import dev.mcptasks.app.assembly.InMemoryPlatform;
import dev.mcptasks.app.config.ConfigLoader;
import dev.mcptasks.testkit.InMemoryAuditLog;
import dev.mcptasks.testkit.InMemoryCredentialStore;
import dev.mcptasks.testkit.InMemoryTaskRepository;
import dev.mcptasks.testkit.ManualClock;
import dev.mcptasks.testkit.SequentialIdGenerator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the command line in-process against one shared in-memory repository and a manual clock, with a config file
 * in a temporary directory, capturing stdout and stderr of each run.
 */
final class CliHarness {
    static final String CONFIG = """
            { "runtime": { "leaseSeconds": 30 },
              "mcpServers": {
                "local": { "command": "node", "args": ["server.js"], "env": { "TOKEN": "${env:TOKEN}" },
                           "taskTtlMs": 60000 },
                "remote": { "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer ${env:TOKEN}" } }
              } }
            """;

    /** The CLI's own clock; also the store's unless a separate store clock is given. */
    final ManualClock clock = new ManualClock();
    final SequentialIdGenerator ids = new SequentialIdGenerator();
    /** The store's clock: the in-memory store stamps and judges worker heartbeats with it. */
    final ManualClock storeClock;
    final InMemoryTaskRepository repository;
    /** Where the OAuth module keeps sealed tokens. */
    final InMemoryCredentialStore credentials;
    final InMemoryAuditLog audit;
    final Map<String, String> environment = new HashMap<>(Map.of("TOKEN", "s3cret"));
    final Path dir;
    Sleeper sleeper = duration -> clock.advance(duration);
    ShutdownHooks shutdownHooks = hook -> {};
    // volatile: a test may read a run's output from another thread while the run waits (auth login)
    private volatile StringWriter out = new StringWriter();
    private volatile StringWriter err = new StringWriter();

    CliHarness(Path dir) {
        this(dir, null);
    }

    /** A harness whose store keeps its own time ({@code storeClock}), apart from the CLI's {@link #clock}. */
    CliHarness(Path dir, ManualClock storeClock) {
        this.dir = dir;
        this.storeClock = storeClock == null ? clock : storeClock;
        this.repository = new InMemoryTaskRepository(this.storeClock, ids);
        this.credentials = new InMemoryCredentialStore(this.storeClock);
        this.audit = new InMemoryAuditLog(this.storeClock);
        writeConfig(CONFIG);
    }

    void writeConfig(String json) {
        try {
            Files.writeString(dir.resolve("mcp-tasks.json"), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        AppRoot root = new AppRoot(config -> List.of(platform(), new StdioTransportModule()), environment::get);
        CliContext context = new CliContext(new PrintWriter(out, true), new PrintWriter(err, true),
                new ConfigLoader(environment::get, dir), root, sleeper, shutdownHooks);
        return Cli.run(context, args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    private Module platform() {
        return new InMemoryPlatform(clock, ids, repository, repository, repository.retention(), credentials, audit);
    }
}
