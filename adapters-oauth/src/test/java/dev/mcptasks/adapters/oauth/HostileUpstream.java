package dev.mcptasks.adapters.oauth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An upstream that answers 200 with a body that never ends well: {@code /endless} streams up to {@link #ENDLESS}
 * bytes as fast as the client takes them, {@code /trickle} sends one byte per tick until {@link #release} opens
 * (or {@link #TRICKLE_TICKS} ticks pass). It counts the bytes the client actually took: a write that returns was
 * accepted by the socket, so the count is what was read plus the sockets' buffers.
 */
final class HostileUpstream implements AutoCloseable {
    /** Far more than any bound (64 MiB stands in for the 1 GB of the incident; it ends so old code fails, not dies). */
    static final long ENDLESS = 64L * 1024 * 1024;
    static final int TRICKLE_TICKS = 400;

    final AtomicLong written = new AtomicLong();
    /** Counted down when a handler stops writing (the client went away, or the body ended). */
    final CountDownLatch finished = new CountDownLatch(1);
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final HttpServer server;

    HostileUpstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/endless", this::endless);
        server.createContext("/trickle", this::trickle);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "hostile-upstream");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private void endless(HttpExchange exchange) throws IOException {
        started.countDown();
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write('{');
            while (written.get() < ENDLESS) {
                out.write(chunk);
                out.flush();
                written.addAndGet(chunk.length);
            }
        } catch (IOException e) {
            // the client cut the exchange: what it took is counted
        } finally {
            finished.countDown();
        }
    }

    private void trickle(HttpExchange exchange) throws IOException {
        started.countDown();
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write('{');
            out.flush();
            for (int tick = 0; tick < TRICKLE_TICKS; tick++) {
                if (release.await(50, TimeUnit.MILLISECONDS)) {
                    break;
                }
                out.write(' ');
                out.flush();
                written.incrementAndGet();
            }
            out.write('}');
        } catch (IOException e) {
            // the client cut the exchange
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished.countDown();
        }
    }

    @Override
    public void close() {
        release.countDown();
        server.stop(0);
    }
}
