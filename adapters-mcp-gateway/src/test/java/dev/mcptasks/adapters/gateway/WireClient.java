package dev.mcptasks.adapters.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP/1.1 client on a plain JDK socket, for tests that must send what the JDK HttpClient refuses to (a foreign
 * {@code Host}, a body that never comes) and read an SSE body event by event as it arrives. Every read has a ten
 * second socket timeout, the tests' deadline.
 */
final class WireClient {
    static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int TIMEOUT_MILLIS = 10_000;

    private final InetSocketAddress address;

    WireClient(InetSocketAddress address) {
        this.address = address;
    }

    /** A POST of {@code json} with the headers a 2025 client sends. */
    Request post(String json) {
        return new Request("POST", json.getBytes(StandardCharsets.UTF_8))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
    }

    Request get() {
        return new Request("GET", new byte[0]).header("Accept", "text/event-stream");
    }

    Request delete() {
        return new Request("DELETE", new byte[0]);
    }

    Request options() {
        return new Request("OPTIONS", new byte[0]);
    }

    /** One request; headers keep their order and case, and a null value removes a default. */
    final class Request {
        private final String method;
        private final byte[] body;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private String path = RequestGate.PATH;

        private Request(String method, byte[] body) {
            this.method = method;
            this.body = body;
            headers.put("Host", "127.0.0.1:" + address.getPort());
        }

        Request header(String name, String value) {
            headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(name));
            if (value != null) {
                headers.put(name, value);
            }
            return this;
        }

        Request path(String newPath) {
            this.path = newPath;
            return this;
        }

        /** Sends the request with its body and reads the response head. */
        Response send() {
            return open(true, body.length);
        }

        /** Sends only the head, declaring a body of {@code declaredLength} bytes, and reads the response head. */
        Response sendHeadOnly(long declaredLength) {
            return open(false, declaredLength);
        }

        private Response open(boolean withBody, long contentLength) {
            try {
                Socket socket = new Socket();
                socket.connect(address, TIMEOUT_MILLIS);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
                headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
                if (!"GET".equals(method) && !"DELETE".equals(method) || contentLength > 0) {
                    head.append("Content-Length: ").append(contentLength).append("\r\n");
                }
                head.append("\r\n");
                OutputStream out = socket.getOutputStream();
                out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
                if (withBody) {
                    out.write(body);
                }
                out.flush();
                return new Response(socket);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** A response whose head has been read; the body is read on demand, whole or event by event. */
    static final class Response implements AutoCloseable {
        private final Socket socket;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private int status;
        private InputStream body;
        private String text;

        /** The next response on a connection the test drives itself (e.g. two requests on one socket). */
        static Response on(Socket socket) {
            return new Response(socket);
        }

        /** The head is read on first use, so a test can act between sending and reading. */
        private Response(Socket socket) {
            this.socket = socket;
        }

        private void readHead() {
            if (body != null) {
                return;
            }
            try {
                InputStream raw = socket.getInputStream();
                String statusLine = line(raw);
                status = Integer.parseInt(statusLine.split(" ")[1]);
                for (String header = line(raw); !header.isEmpty(); header = line(raw)) {
                    int colon = header.indexOf(':');
                    headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                            header.substring(colon + 1).trim());
                }
                if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                    body = new Chunked(raw);
                } else if (headers.containsKey("content-length")) {
                    body = new Bounded(raw, Long.parseLong(headers.get("content-length")));
                } else {
                    body = raw;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        int status() {
            readHead();
            return status;
        }

        /** A header by name (any case), or null. */
        String header(String name) {
            readHead();
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String body() {
            readHead();
            if (text == null) {
                try {
                    text = new String(body.readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return text;
        }

        ObjectNode json() {
            try {
                return (ObjectNode) MAPPER.readTree(body());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The next SSE event or comment, or null when the stream ended. */
        SseEvent nextEvent() {
            readHead();
            try {
                String id = null;
                String event = null;
                Long retry = null;
                StringBuilder data = null;
                while (true) {
                    String line = utf8Line(body);
                    if (line == null) {
                        return null;
                    }
                    if (line.isEmpty()) {
                        if (id != null || event != null || retry != null || data != null) {
                            return new SseEvent(id, event, data == null ? null : data.toString(), retry, null);
                        }
                        continue;
                    }
                    if (line.startsWith(":")) {
                        return new SseEvent(null, null, null, null, line.substring(1).trim());
                    }
                    int colon = line.indexOf(':');
                    String field = colon < 0 ? line : line.substring(0, colon);
                    String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                    switch (field) {
                        case "id" -> id = value;
                        case "event" -> event = value;
                        case "retry" -> retry = Long.parseLong(value);
                        case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                        default -> { }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The next event that carries data (skipping comments and the priming event), or null at the end. */
        SseEvent nextMessage() {
            for (SseEvent event = nextEvent(); event != null; event = nextEvent()) {
                if (event.data() != null && !event.data().isEmpty()) {
                    return event;
                }
            }
            return null;
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** One SSE event ({@code comment} null) or one comment line (everything else null). */
    record SseEvent(String id, String event, String data, Long retry, String comment) {
        ObjectNode json() {
            try {
                return (ObjectNode) MAPPER.readTree(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String line(InputStream in) throws IOException {
        String line = utf8Line(in);
        if (line == null) {
            throw new EOFException("the connection closed inside a response head");
        }
        return line;
    }

    /** A line without its CRLF or LF, or null at end of input. */
    private static String utf8Line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            bytes.write(b);
        }
        if (b == -1 && bytes.size() == 0) {
            return null;
        }
        String line = bytes.toString(StandardCharsets.UTF_8);
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    /** A body of a known length. */
    private static final class Bounded extends InputStream {
        private final InputStream in;
        private long left;

        Bounded(InputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            if (left == 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }
    }

    /** A chunked body, decoded as it arrives. */
    private static final class Chunked extends InputStream {
        private final InputStream in;
        private long left;
        private boolean done;

        Chunked(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (done) {
                return -1;
            }
            if (left == 0) {
                String size = utf8Line(in);
                if (size == null) {
                    done = true;
                    return -1;
                }
                if (size.isEmpty()) {
                    size = utf8Line(in);
                    if (size == null) {
                        done = true;
                        return -1;
                    }
                }
                left = Long.parseLong(size.split(";")[0].trim(), 16);
                if (left == 0) {
                    done = true;
                    return -1;
                }
            }
            int b = in.read();
            if (b < 0) {
                done = true;
                return -1;
            }
            left--;
            return b;
        }
    }
}
