package dev.mcptasks.adapters.http;

import static dev.mcptasks.adapters.httpsupport.TransportWaits.eventually;
import static dev.mcptasks.adapters.httpsupport.TransportWaits.failure;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.ports.transport.McpServerSpec;
import dev.mcptasks.ports.transport.McpTransport;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import dev.mcptasks.testkit.transport.RawHttpPeer;
import dev.mcptasks.testkit.transport.RecordingListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the HTTP transport lets go of requests: an abandoned POST's connection is closed before its send completes,
 * requests beyond the connection bound wait and, abandoned while waiting, never reach the server, and what failed
 * before anything was written (TLS handshake) says so.
 */
class LettingGoTest {
    private final RecordingListener listener = new RecordingListener();
    private RawHttpPeer peer;
    private McpTransport transport;

    @AfterEach
    void close() {
        if (transport != null) {
            transport.close();
        }
        if (peer != null) {
            peer.close();
        }
    }

    private void start(int maxConnections) throws IOException {
        peer = new RawHttpPeer(request -> request.rpcMethod().equals("hang") ? RawHttpPeer.hold()
                : RawHttpPeer.json(RawHttpPeer.result(request.rpcId(), "{}")));
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.uri(), Map.of())
                .withMaxConnections(maxConnections));
        transport.start(listener);
    }

    private static String request(int id, String method) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}";
    }

    @Test
    void requestsBeyondTheBoundWaitAndAnAbandonedWaitingOneNeverReachesTheServer() throws Exception {
        start(1);
        CompletableFuture<Void> held = transport.send(request(1, "hang"));
        eventually(() -> peer.heldRequests() == 1, "the first request is held");
        CompletableFuture<Void> waiting = transport.send(request(2, "hang"));

        transport.abandon(waiting);

        McpTransportException unsent = failure(waiting);
        assertThat(unsent.kind()).isEqualTo(Kind.CLOSED);
        assertThat(unsent.sent()).as("it never had a connection").isFalse();
        transport.abandon(held);
        McpTransportException abandoned = failure(held);
        assertThat(abandoned.kind()).isEqualTo(Kind.CLOSED);
        assertThat(abandoned.sent()).as("it was written").isTrue();
        eventually(() -> peer.heldRequests() == 0, "the held request's connection is closed");
        assertThat(peer.heldEver()).isEqualTo(1);

        transport.send(request(3, "echo")).get(10, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).contains("\"id\":3");
        assertThat(peer.requests()).extracting(RawHttpPeer.Request::rpcId).containsExactly("1", "3");
        assertThat(listener.closedCalls()).isZero();
    }

    @Test
    void aWaitingRequestGoesOutOnceTheConnectionIsFree() throws Exception {
        start(1);
        CompletableFuture<Void> held = transport.send(request(1, "hang"));
        eventually(() -> peer.heldRequests() == 1, "the first request is held");
        CompletableFuture<Void> next = transport.send(request(2, "echo"));

        transport.abandon(held);

        next.get(10, TimeUnit.SECONDS);
        assertThat(listener.nextMessage()).contains("\"id\":2");
        assertThat(peer.maxHeldRequests()).isEqualTo(1);
    }

    @Test
    void abandoningBetweenABrokenStreamAndItsResumptionLetsGoAtOnce() throws Exception {
        peer = new RawHttpPeer(request -> request.method().equals("POST")
                ? new RawHttpPeer.Reply.Cut("text/event-stream", "retry: 600000\nid: e1\ndata: \n\n")
                : RawHttpPeer.hold());
        transport = new HttpTransportFactory().create(McpServerSpec.http("peer", peer.uri(), Map.of()));
        transport.start(listener);
        CompletableFuture<Void> broken = transport.send(request(1, "work"));
        NettyHttpClient client = ((StreamableHttpMcpTransport) transport).client();
        eventually(() -> peer.requests().size() == 1 && client.inUse() == 0,
                "the client saw the stream cut and waits to resume it");

        transport.abandon(broken);

        McpTransportException abandoned = failure(broken);
        assertThat(abandoned.kind()).isEqualTo(Kind.CLOSED);
        assertThat(abandoned.sent()).isTrue();
    }

    @Test
    void closingWithARequestInFlightSaysItMayHaveBeenSent() throws Exception {
        start(4);
        CompletableFuture<Void> held = transport.send(request(1, "hang"));
        eventually(() -> peer.heldRequests() == 1, "the request is held");

        transport.close();

        McpTransportException closed = failure(held);
        assertThat(closed.kind()).isEqualTo(Kind.CLOSED);
        assertThat(closed.sent()).isTrue();
        eventually(() -> peer.heldRequests() == 0, "its connection is closed");
    }

    @Test
    void aTlsHandshakeThatFailsSentNothing() throws Exception {
        try (NotTls server = new NotTls(true); NotTls closer = new NotTls(false)) {
            for (NotTls endpoint : new NotTls[] {server, closer}) {
                McpTransport tls = new HttpTransportFactory().create(McpServerSpec.http("peer",
                        URI.create("https://127.0.0.1:" + endpoint.port() + "/mcp"), Map.of()));
                try {
                    tls.start(new RecordingListener());
                    McpTransportException failed = failure(tls.send(request(1, "echo")));
                    assertThat(failed.kind()).as(failed.getMessage()).isEqualTo(Kind.CONNECT_FAILED);
                    assertThat(failed.sent()).isFalse();
                } finally {
                    tls.close();
                }
            }
        }
    }

    /** Accepts connections and answers the TLS ClientHello with plain text, or closes at once. */
    private static final class NotTls implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
        private final Thread thread;

        NotTls(boolean answerPlainText) throws IOException {
            thread = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket socket = server.accept()) {
                        if (answerPlainText) {
                            InputStream in = socket.getInputStream();
                            in.read(new byte[512]);
                            OutputStream out = socket.getOutputStream();
                            out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                            out.flush();
                        }
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "not-tls");
            thread.setDaemon(true);
            thread.start();
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
