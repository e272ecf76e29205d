package dev.mcptasks.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcptasks.adapters.httpsupport.SseEvent;
import dev.mcptasks.ports.transport.McpTransportException;
import dev.mcptasks.ports.transport.McpTransportException.Kind;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The response handler on an embedded channel, fed raw HTTP bytes split at awkward places. */
class ResponseHandlerTest {
    private final RecordingSink sink = new RecordingSink();
    private final StreamState stream = new StreamState();
    private final SessionHeaders sessions = new SessionHeaders(Map.of());
    private ResponseHandler handler;
    private EmbeddedChannel channel;

    private void open(int max) {
        handler = new ResponseHandler("srv", max, sessions, sink, stream);
        channel = new EmbeddedChannel(new HttpResponseDecoder(), handler);
    }

    private void inbound(String... chunks) {
        for (String chunk : chunks) {
            channel.writeInbound(Unpooled.copiedBuffer(chunk, StandardCharsets.UTF_8));
        }
    }

    private McpTransportException failure() {
        assertThat(handler.outcome()).isCompleted();
        ExchangeOutcome outcome = handler.outcome().join();
        assertThat(outcome).isInstanceOf(ExchangeOutcome.Failed.class);
        return ((ExchangeOutcome.Failed) outcome).cause();
    }

    @Test
    void jsonBodyInPiecesIsOneMessageAndTheSessionIdIsCaptured() {
        open(1000);
        inbound("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s-1\r\nContent-Le",
                "ngth: 14\r\n\r\n{\"id\":", "1,\"x\":2}");

        assertThat(sink.bodies).containsExactly("{\"id\":1,\"x\":2}");
        assertThat(handler.outcome().join()).isEqualTo(new ExchangeOutcome.Completed(200));
        assertThat(sessions.sessionId()).isEqualTo("s-1");
    }

    @Test
    void acceptedWithoutBodyCompletesSilently() {
        open(1000);
        inbound("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");

        assertThat(handler.outcome().join()).isEqualTo(new ExchangeOutcome.Completed(202));
        assertThat(sink.bodies).isEmpty();
        assertThat(sink.events).isEmpty();
    }

    @Test
    void chunkedSseStreamIsParsedAcrossChunkAndPacketBoundaries() {
        String response = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunk("id: p\nretry: 40\ndata: \n\nev") + chunk("ent: message\nid: 2\nda") + chunk("ta")
                + chunk(": {\"id\":1}\n") + chunk("\n") + "0\r\n\r\n";
        for (int piece = 1; piece <= 13; piece += 4) {
            sink.events.clear();
            open(1000);
            for (int at = 0; at < response.length(); at += piece) {
                inbound(response.substring(at, Math.min(response.length(), at + piece)));
            }
            assertThat(sink.events).as("pieces of %d", piece).containsExactly(new SseEvent("2", "message", "{\"id\":1}"));
            assertThat(stream.lastEventId()).isEqualTo("2");
            assertThat(stream.reconnectDelayMillis()).isEqualTo(40);
            assertThat(handler.outcome().join()).isEqualTo(new ExchangeOutcome.Completed(200));
        }
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n";
    }

    @Test
    void sseEventsAreDelivered() {
        open(1000);
        inbound("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
                chunk("event: message\nid: 1\ndata: {\"a\":1}\n\n"), "0\r\n\r\n");

        assertThat(sink.events).containsExactly(new SseEvent("1", "message", "{\"a\":1}"));
    }

    @Test
    void notFoundWithASessionMeansTheSessionIsLost() {
        sessions.capture(new DefaultHttpHeaders().set(SessionHeaders.SESSION_ID, "s-1"));
        open(1000);
        inbound("HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}");

        assertThat(failure().kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void notFoundWithoutASessionIsAPlainStatus() {
        open(1000);
        inbound("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");

        McpTransportException failure = failure();
        assertThat(failure.kind()).isEqualTo(Kind.HTTP_STATUS);
        assertThat(failure.httpStatus()).isEqualTo(404);
        assertThat(failure.retryable()).isFalse();
    }

    @Test
    void serverEverythingsBadRequestForAnUnknownSessionMeansTheSessionIsLost() {
        open(1000);
        String body = "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Bad Request: No valid session ID"
                + " provided\"},\"id\":null}";
        inbound("HTTP/1.1 400 Bad Request\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

        assertThat(failure().kind()).isEqualTo(Kind.SESSION_LOST);
    }

    @Test
    void serverErrorIsRetryableStatus() {
        open(1000);
        inbound("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy");

        McpTransportException failure = failure();
        assertThat(failure.httpStatus()).isEqualTo(503);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure).hasMessageContaining("503").hasMessageContaining("busy");
    }

    @Test
    void oversizedJsonBodyIsReportedAndTheConnectionDropped() {
        open(10);
        inbound("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"x\":\"0123",
                "456789012\"}");

        assertThat(failure().kind()).isEqualTo(Kind.MESSAGE_TOO_LARGE);
        assertThat(sink.errors).extracting(McpTransportException::kind).containsExactly(Kind.MESSAGE_TOO_LARGE);
        assertThat(sink.bodies).isEmpty();
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void connectionLostMidStreamIsBroken() {
        open(1000);
        inbound("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
                chunk("id: 9\ndata: \n\n"));
        channel.close();

        assertThat(handler.outcome().join()).isInstanceOf(ExchangeOutcome.Broken.class);
        assertThat(stream.lastEventId()).isEqualTo("9");
    }

    @Test
    void readIdlenessIsATimeout() {
        open(1000);
        inbound("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);

        assertThat(failure().kind()).isEqualTo(Kind.TIMEOUT);
        assertThat(channel.isOpen()).isFalse();
    }
}
