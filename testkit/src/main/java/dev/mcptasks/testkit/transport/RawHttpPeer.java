package dev.mcptasks.testkit.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny scripted HTTP/1.1 server on plain sockets (one thread per connection, keep-alive), for transport tests that
 * must see what the JDK or Netty servers hide: when the client closes a connection. A script answers each request
 * at once or holds it forever; a held request's connection is watched until the client closes it, and the peer
 * counts how many are held at once. Loopback only.
 */
public final class RawHttpPeer implements AutoCloseable {
    private static final Pattern RPC_METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern RPC_ID = Pattern.compile("\"id\"\\s*:\\s*(\\d+|\"[^\"]*\")");
    private static final int MAX_HEAD = 64 * 1024;

    /** One request as read from the wire. */
    public record Request(String method, String path, Map<String, String> headers, String body) {
        /** The JSON-RPC method of the body, or "" (a response or no body). */
        public String rpcMethod() {
            Matcher matcher = RPC_METHOD.matcher(body);
            return matcher.find() ? matcher.group(1) : "";
        }

        /** The JSON-RPC id of the body as JSON text, or null for a notification. */
        public String rpcId() {
            Matcher matcher = RPC_ID.matcher(body);
            return matcher.find() ? matcher.group(1) : null;
        }

        /** A header by lower-case name, or null. */
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** What the peer does with a request. */
    public sealed interface Reply {
        /** Answers with a whole response (Content-Length framing). */
        record Respond(int status, String contentType, String body, Map<String, String> headers) implements Reply {}

        /** Never answers; the connection stays open until the client closes it. */
        record Hold() implements Reply {}

        /** Starts a chunked response, sends one chunk, and closes the connection without ending it. */
        record Cut(String contentType, String partialBody) implements Reply {}
    }

    public static Reply json(String body) {
        return new Reply.Respond(200, "application/json", body, Map.of());
    }

    public static Reply sse(String... messages) {
        StringBuilder stream = new StringBuilder();
        for (String message : messages) {
            stream.append("event: message\ndata: ").append(message).append("\n\n");
        }
        return new Reply.Respond(200, "text/event-stream", stream.toString(), Map.of());
    }

    public static Reply status(int status, String body) {
        return new Reply.Respond(status, "application/json", body, Map.of());
    }

    public static Reply hold() {
        return new Reply.Hold();
    }

    /** A JSON-RPC result envelope for {@code id}. */
    public static String result(String id, String result) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
    }

    private final ServerSocket server;
    private final Function<Request, Reply> script;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger maxHeld = new AtomicInteger();
    private final AtomicInteger heldEver = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean closed;

    public RawHttpPeer(Function<Request, Reply> script) throws IOException {
        this.script = script;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        this.acceptor = new Thread(this::acceptLoop, "raw-http-peer-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/mcp");
    }

    /** Every request read so far, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** Connections accepted so far. */
    public int acceptedConnections() {
        return accepted.get();
    }

    /** Connections the client has not closed yet. */
    public int openConnections() {
        return open.get();
    }

    /** Requests held now: read, never answered, their connection still open. */
    public int heldRequests() {
        return held.get();
    }

    /** The most requests ever held at once. */
    public int maxHeldRequests() {
        return maxHeld.get();
    }

    /** How many requests were ever held. */
    public int heldEver() {
        return heldEver.get();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            accepted.incrementAndGet();
            open.incrementAndGet();
            sockets.add(socket);
            Thread thread = new Thread(() -> serve(socket), "raw-http-peer-conn");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                Request request = read(in);
                if (request == null) {
                    return;
                }
                requests.add(request);
                Reply reply = script.apply(request);
                if (reply instanceof Reply.Respond respond) {
                    write(out, respond);
                } else if (reply instanceof Reply.Cut cut) {
                    byte[] body = cut.partialBody().getBytes(StandardCharsets.UTF_8);
                    // chunked, and closed without the last chunk: a stream cut short, not a short body
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + cut.contentType()
                            + "\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length) + "\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    return;
                } else {
                    holdUntilClosed(in);
                    return;
                }
            }
        } catch (IOException e) {
            // the client cut the connection: that is an end like any other here
        } finally {
            sockets.remove(socket);
            open.decrementAndGet();
        }
    }

    private void holdUntilClosed(InputStream in) throws IOException {
        int now = held.incrementAndGet();
        heldEver.incrementAndGet();
        maxHeld.accumulateAndGet(now, Math::max);
        try {
            byte[] drain = new byte[1024];
            while (in.read(drain) >= 0) {
                // a held request gets no answer; anything more the client writes is ignored
            }
        } finally {
            held.decrementAndGet();
        }
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0d0a0d0a) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.write(b);
            last4 = (last4 << 8) | b;
            if (head.size() > MAX_HEAD) {
                throw new IOException("request head too large");
            }
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] start = lines[0].split(" ");
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        if (body.length < length) {
            return null;
        }
        return new Request(start[0], start.length > 1 ? start[1] : "", Map.copyOf(headers),
                new String(body, StandardCharsets.UTF_8));
    }

    private static void write(OutputStream out, Reply.Respond respond) throws IOException {
        byte[] body = respond.body().getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(respond.status()).append(" X\r\n")
                .append("Content-Type: ").append(respond.contentType()).append("\r\n")
                .append("Content-Length: ").append(body.length).append("\r\n");
        respond.headers().forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
