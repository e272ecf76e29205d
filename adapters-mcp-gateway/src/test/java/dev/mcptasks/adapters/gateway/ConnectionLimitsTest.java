package dev.mcptasks.adapters.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Idle and half-sent connections are closed after the request timeout, a request being answered is never cut, and
 * a connection beyond the cap is closed at once. The bound is the gateway's own (Netty's timer): these tests wait
 * for it with real time, a few hundred milliseconds.
 */
class ConnectionLimitsTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private final List<Socket> sockets = new ArrayList<>();
    private GatewayFixture fixture;

    @AfterEach
    void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private void start(int maxConnections, Duration timeout) {
        fixture = new GatewayFixture(GatewaySettings.defaults()
                .withConnections(new GatewaySettings.Connections(timeout, maxConnections, 100)));
    }

    @Test
    void anIdleConnectionAndAHalfSentRequestAreClosedAfterTheTimeout() throws Exception {
        start(100, TIMEOUT);
        Socket idle = connect();
        Socket slowloris = connect();
        slowloris.getOutputStream().write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(
                StandardCharsets.US_ASCII));
        slowloris.getOutputStream().flush();

        assertThat(closedWithin(idle, Duration.ofSeconds(10))).as("idle connection closed").isTrue();
        assertThat(closedWithin(slowloris, Duration.ofSeconds(10))).as("half-sent request closed").isTrue();
    }

    @Test
    void aRequestBeingAnsweredIsNotCutAndTheConnectionServesTheNextOne() throws Exception {
        start(100, TIMEOUT);
        String session = fixture.initialize();
        CompletableFuture<Optional<ObjectNode>> held = fixture.dispatcher.gate("slow");
        CompletableFuture<Integer> answered = CompletableFuture.supplyAsync(() -> {
            try (WireClient.Response response = fixture.request(session, 2, "slow").send()) {
                response.body();
                return response.status();
            }
        });
        fixture.dispatcher.next("slow");
        // the timer that would close an idle connection has had three chances to fire
        Thread.sleep(TIMEOUT.multipliedBy(3).toMillis());
        assertThat(answered).as("still being answered").isNotDone();

        held.complete(Optional.of(FrontJson.object().put("jsonrpc", "2.0").put("id", 2).set("result",
                FrontJson.object())));
        assertThat(answered.get(10, TimeUnit.SECONDS)).isEqualTo(200);
    }

    @Test
    void aConnectionBeyondTheCapIsClosedAtOnce() throws Exception {
        start(3, Duration.ofMinutes(5));
        for (int i = 0; i < 4; i++) {
            connect();
        }

        // the gateway's event loops may see the four in any order: whichever came fourth is closed, only that one
        int closed = 0;
        for (Socket socket : sockets) {
            if (closedWithin(socket, Duration.ofSeconds(2))) {
                closed++;
            }
        }
        assertThat(closed).isEqualTo(1);
    }

    @Test
    void atTheCapClientsWithRequestsTakeThePlaceOfTheOldestIdleSockets() throws Exception {
        start(3, Duration.ofMinutes(5));
        Socket oldest = connect();
        awaitOpen(1);
        connect();
        awaitOpen(2);
        Socket third = connect();
        awaitOpen(3);

        // the cap is full of sockets that never sent a request: the client's initialize makes room by closing the
        // oldest; its next request makes room again only if the initialize connection is not closed yet (then
        // the next oldest goes), so only the newest idle socket is sure to stay
        String session = fixture.initialize();
        try (WireClient.Response response = fixture.request(session, 2, "ping").send()) {
            assertThat(response.status()).isEqualTo(200);
        }
        assertThat(closedWithin(oldest, Duration.ofSeconds(2))).as("the oldest idle socket made room").isTrue();
        assertThat(closedWithin(third, Duration.ofMillis(200))).as("the newest idle socket stays").isFalse();
    }

    /** Waits until the gateway has taken {@code count} connections in (its event loops run on their own). */
    private void awaitOpen(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (fixture.gateway.openConnections() != count) {
            assertThat(System.nanoTime()).as("%s connections open", count).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(fixture.gateway.address().getAddress(), fixture.gateway.address().getPort());
        sockets.add(socket);
        return socket;
    }

    /** Whether the server closed {@code socket} (end of stream or reset) within {@code bound}. */
    private static boolean closedWithin(Socket socket, Duration bound) throws IOException {
        socket.setSoTimeout((int) bound.toMillis());
        InputStream in = socket.getInputStream();
        try {
            while (true) {
                int read = in.read();
                if (read < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }
}
