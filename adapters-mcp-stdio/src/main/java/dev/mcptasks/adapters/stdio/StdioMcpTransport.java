package dev.mcptasks.adapters.stdio;

import dev.mcptasks.ports.transport.McpMessageTooLargeException;
import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MCP server as a child process speaking newline-delimited JSON-RPC on stdin/stdout. One writer thread
 * serializes writes; one reader thread hands stdout lines to the listener; stderr goes to the log. {@code onClosed}
 * is called at most once, when the process exits without a local {@link #close()}.
 */
final class StdioMcpTransport implements McpTransport {
    private static final Logger log = LoggerFactory.getLogger(StdioMcpTransport.class);
    private static final int MAX_STDERR_LINE = 64 * 1024;

    private final McpServerSpec spec;
    private final Duration grace;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closeCalled = new AtomicBoolean();
    /** Completes when the first close finished: a later close waits for it, so none returns before the child died. */
    private final CompletableFuture<Void> closeDone = new CompletableFuture<>();
    /** Null while open; else why it ended (CLOSED locally, PROCESS_EXITED by the peer). Set exactly once. */
    private final AtomicReference<McpTransportException> terminated = new AtomicReference<>();
    private final ExecutorService writer;
    private volatile Process process;
    private volatile Thread reader;
    private volatile Thread stderrReader;
    private volatile Listener listener;

    StdioMcpTransport(McpServerSpec spec, Duration grace) {
        this.spec = spec;
        this.grace = grace;
        this.writer = Executors.newSingleThreadExecutor(runnable -> daemon(runnable, "writer"));
    }

    @Override
    public void start(Listener listener) {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("stdio transport for server '" + spec.name() + "' was already started");
        }
        this.listener = listener;
        List<String> command = new ArrayList<>();
        command.add(spec.command());
        command.addAll(spec.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        // nothing is inherited but PATH: the spec names the child's whole environment (secrets included)
        env.clear();
        String path = System.getenv("PATH");
        if (path != null) {
            env.put("PATH", path);
        }
        env.putAll(spec.env());
        if (spec.workingDirectory() != null) {
            builder.directory(spec.workingDirectory().toFile());
        }
        try {
            process = builder.start();
        } catch (IOException | RuntimeException e) {
            McpTransportException failed = new McpTransportException(Kind.CONNECT_FAILED, "cannot start server '"
                    + spec.name() + "': command '" + spec.command() + "' failed to launch: " + e.getMessage(), e);
            terminated.set(failed);
            writer.shutdownNow();
            throw failed;
        }
        log.debug("started server '{}' (pid {}): {} {} with env {}", spec.name(), process.pid(), spec.command(),
                spec.args(), env.keySet());
        reader = daemon(this::readStdout, "reader");
        stderrReader = daemon(this::readStderr, "stderr");
        reader.start();
        stderrReader.start();
        // not on the JDK's process reaper thread: processExited waits for the reader to drain stdout
        process.onExit().thenRunAsync(this::processExited, task -> daemon(task, "exit").start());
    }

    @Override
    public CompletableFuture<Void> send(String message) {
        if (!started.get()) {
            throw new IllegalStateException("stdio transport for server '" + spec.name() + "' was not started");
        }
        if (message.indexOf('\n') >= 0 || message.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a stdio MCP message must not contain a raw line break (server '"
                    + spec.name() + "')");
        }
        McpTransportException ended = ended();
        if (ended != null) {
            return CompletableFuture.failedFuture(ended);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        byte[] line = (message + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            writer.execute(() -> write(line, done));
        } catch (RejectedExecutionException e) {
            done.completeExceptionally(endedOr(Kind.CLOSED));
        }
        return done;
    }

    private void write(byte[] line, CompletableFuture<Void> done) {
        McpTransportException ended = ended();
        if (ended != null) {
            done.completeExceptionally(ended);
            return;
        }
        try {
            OutputStream stdin = process.getOutputStream();
            stdin.write(line);
            stdin.flush();
            done.complete(null);
        } catch (IOException e) {
            done.completeExceptionally(new McpTransportException(Kind.PROCESS_EXITED,
                    "writing to server '" + spec.name() + "' failed (has it exited?): " + e.getMessage(), e));
        }
    }

    private void readStdout() {
        BoundedLineReader lines = new BoundedLineReader(process.getInputStream(), spec.maxMessageBytes());
        try {
            while (true) {
                BoundedLineReader.Read read = lines.next();
                if (read instanceof BoundedLineReader.Eof) {
                    return;
                }
                if (read instanceof BoundedLineReader.TooLong tooLong) {
                    report(new McpMessageTooLargeException("server '" + spec.name() + "' wrote a line",
                            tooLong.bytes(), false, spec.maxMessageBytes(), tooLong.head(), tooLong.tail()));
                } else if (read instanceof BoundedLineReader.Line line) {
                    deliver(line.text());
                }
            }
        } catch (IOException e) {
            // the stream is closed under us when the process is destroyed: exit detection reports it
            log.debug("stdout of server '{}' ended: {}", spec.name(), e.toString());
        }
    }

    private void deliver(String line) {
        String text = line.strip();
        if (text.isEmpty()) {
            return;
        }
        if (text.charAt(0) != '{' && text.charAt(0) != '[') {
            report(new McpTransportException(Kind.MALFORMED, "server '" + spec.name()
                    + "' wrote a line that is not JSON to stdout: " + abbreviate(text)));
            return;
        }
        try {
            listener.onMessage(text);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on a message", spec.name(), e);
        }
    }

    private void report(McpTransportException error) {
        log.debug("{}", error.getMessage());
        try {
            listener.onError(error);
        } catch (RuntimeException e) {
            log.warn("listener of server '{}' failed on an error report", spec.name(), e);
        }
    }

    private void readStderr() {
        BoundedLineReader lines = new BoundedLineReader(process.getErrorStream(), MAX_STDERR_LINE);
        try {
            for (BoundedLineReader.Read read = lines.next(); !(read instanceof BoundedLineReader.Eof);
                    read = lines.next()) {
                if (read instanceof BoundedLineReader.Line line && !line.text().isBlank()) {
                    log.debug("[{} stderr] {}", spec.name(), line.text());
                }
            }
        } catch (IOException e) {
            log.debug("stderr of server '{}' ended: {}", spec.name(), e.toString());
        }
    }

    private void processExited() {
        // let the reader hand over what the process wrote before it died, so onClosed comes last
        join(reader, grace);
        McpTransportException cause = new McpTransportException(Kind.PROCESS_EXITED, "server '" + spec.name()
                + "' (" + spec.command() + ") exited with code " + process.exitValue());
        if (terminated.compareAndSet(null, cause)) {
            log.info("{}", cause.getMessage());
            writer.shutdown();
            try {
                listener.onClosed(cause);
            } catch (RuntimeException e) {
                log.warn("listener of server '{}' failed on close", spec.name(), e);
            }
        }
    }

    @Override
    public void close() {
        if (!closeCalled.compareAndSet(false, true)) {
            // a close already runs (a lost session closes its transport on another thread): the caller, perhaps a
            // process about to exit, must not return before the child was stopped
            try {
                closeDone.get(grace.multipliedBy(4).plusSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                log.debug("waiting for the running close of server '{}' ended: {}", spec.name(), e.toString());
            }
            return;
        }
        try {
            stop();
        } finally {
            closeDone.complete(null);
        }
    }

    /** Whether a close has begun (tests). */
    boolean closing() {
        return closeCalled.get();
    }

    private void stop() {
        terminated.compareAndSet(null, new McpTransportException(Kind.CLOSED,
                "transport to server '" + spec.name() + "' was closed"));
        if (process == null) {
            writer.shutdownNow();
            return;
        }
        // closing stdin on the writer thread orders it after a write in progress; a write stuck on a full pipe is
        // cut short by the SIGTERM below
        CompletableFuture<Void> stdinClosed;
        try {
            stdinClosed = CompletableFuture.runAsync(this::closeStdin, writer);
        } catch (RejectedExecutionException e) {
            // the writer is already gone because the process exited
            closeStdin();
            stdinClosed = CompletableFuture.completedFuture(null);
        }
        writer.shutdown();
        try {
            stdinClosed.get(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.debug("closing stdin of server '{}' did not finish: {}", spec.name(), e.toString());
        }
        ChildProcessShutdown.Ending ending = ChildProcessShutdown.stop(process, grace);
        log.debug("server '{}' stopped: {}", spec.name(), ending);
        join(reader, grace);
        join(stderrReader, grace);
    }

    private void closeStdin() {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            log.debug("closing stdin of server '{}' failed: {}", spec.name(), e.toString());
        }
    }

    /** The child's process id, for tests. */
    long pid() {
        return process.pid();
    }

    private McpTransportException ended() {
        McpTransportException cause = terminated.get();
        return cause == null ? null : new McpTransportException(cause.kind(), cause.getMessage());
    }

    private McpTransportException endedOr(Kind kind) {
        McpTransportException ended = ended();
        return ended != null ? ended
                : new McpTransportException(kind, "transport to server '" + spec.name() + "' was closed");
    }

    private Thread daemon(Runnable runnable, String role) {
        Thread thread = new Thread(runnable, "mcp-stdio-" + spec.name() + "-" + role);
        thread.setDaemon(true);
        return thread;
    }

    private static void join(Thread thread, Duration timeout) {
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
