package dev.mcptasks.adapters.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A local webhook receiver for tests: records every request, verifies its signature with its own
 * {@link StandardWebhooksVerifier} and answers as scripted: a status and body, or a hang until the test opens the
 * gate ({@link #hang}; {@link #arrived} counts down when a hanging request came in).
 */
final class WebhookReceiver implements AutoCloseable {
    /** One request as the receiver saw it. */
    record Received(String method, String path, String contentType, String id, String timestamp,
            String signature, String extraHeader, String body, boolean verified) {}

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final StandardWebhooksVerifier verifier;
    private final LongSupplier nowSeconds;
    private final List<Received> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private volatile CountDownLatch arrived = new CountDownLatch(1);
    private volatile int status = 200;
    private volatile String body = "";
    private volatile boolean hanging;
    private volatile boolean hangingBody;

    WebhookReceiver(String whsecSecret, LongSupplier nowSeconds) throws IOException {
        this.verifier = new StandardWebhooksVerifier(whsecSecret, 300);
        this.nowSeconds = nowSeconds;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    /** Answers every following request with this status and body. */
    void answer(int status, String body) {
        this.status = status;
        this.body = body;
        this.hanging = false;
        this.hangingBody = false;
    }

    /** Following requests hang until {@link #release}, then get the scripted status. */
    void hang() {
        arrived = new CountDownLatch(1);
        hanging = true;
    }

    /** Following requests get the scripted status and half their body, the rest after {@link #release}. */
    void hangBody() {
        arrived = new CountDownLatch(1);
        hangingBody = true;
    }

    /** Counts down once a hanging request has arrived. */
    CountDownLatch arrived() {
        return arrived;
    }

    /** Lets hanging requests answer with the status scripted now. */
    void release() {
        gate.countDown();
    }

    int calls() {
        return requests.size();
    }

    List<Received> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] received;
        try (InputStream in = exchange.getRequestBody()) {
            received = in.readAllBytes();
        }
        var headers = exchange.getRequestHeaders();
        String id = headers.getFirst("webhook-id");
        String timestamp = headers.getFirst("webhook-timestamp");
        String signature = headers.getFirst("webhook-signature");
        requests.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                headers.getFirst("Content-Type"), id, timestamp, signature, headers.getFirst("X-Extra"),
                new String(received, StandardCharsets.UTF_8),
                verifier.verify(id, timestamp, signature, received, nowSeconds.getAsLong())));
        if (hanging) {
            arrived.countDown();
            awaitGate();
        }
        byte[] answer = body.getBytes(StandardCharsets.UTF_8);
        try {
            exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    if (hangingBody) {
                        out.write(answer, 0, answer.length / 2);
                        out.flush();
                        arrived.countDown();
                        awaitGate();
                        out.write(answer, answer.length / 2, answer.length - answer.length / 2);
                    } else {
                        out.write(answer);
                    }
                }
            }
        } catch (IOException e) {
            // the sink gave up on this request (its timeout): nobody reads the answer
        } finally {
            exchange.close();
        }
    }

    private void awaitGate() {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        gate.countDown();
        server.stop(0);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
