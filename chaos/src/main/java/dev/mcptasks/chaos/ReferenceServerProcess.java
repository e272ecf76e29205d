package dev.mcptasks.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The reference MCP server over HTTP, one process shared by every serve process of the run (so tasks are not bound to
 * a session and takeovers reach the same task), writing its call log to a file.
 */
final class ReferenceServerProcess {
    private final Process process;
    private final URI endpoint;

    private ReferenceServerProcess(Process process, URI endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** @param generation the server's {@code --generation}: {@code 2025-11-25}, {@code 2026-07-28} or {@code dual} */
    static ReferenceServerProcess start(ProcessControl processes, Path appJar, Path callLog, Path log,
            String generation) throws IOException {
        Process process = processes.startJavaPiped(appJar, List.of("reference-server", "--http", "0",
                "--call-log", callLog.toString(), "--poll-interval-ms", "500", "--generation", generation,
                "--strict-ids"), log);
        CompletableFuture<URI> endpoint = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    int at = line.indexOf("http://");
                    if (at >= 0) {
                        endpoint.complete(URI.create(line.substring(at).trim()));
                    }
                }
            } catch (IOException e) {
                endpoint.completeExceptionally(e);
            }
            endpoint.completeExceptionally(new IOException("the reference server ended without an endpoint"));
        }, "chaos-reference-server-out");
        reader.setDaemon(true);
        reader.start();
        try {
            return new ReferenceServerProcess(process, endpoint.get(60, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the reference server started", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the reference server did not start (see " + log + "): " + e, e);
        }
    }

    URI endpoint() {
        return endpoint;
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM, so the server closes its call log; SIGKILL if it does not end within 10 s. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
