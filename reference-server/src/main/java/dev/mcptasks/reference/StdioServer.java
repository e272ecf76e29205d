package dev.mcptasks.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one client over newline-delimited JSON-RPC: reads requests on the calling thread and writes responses and
 * notifications, one message per line, under a lock so that lines never interleave.
 */
final class StdioServer {
  /** Longest accepted input line; a longer one is answered with a parse error and skipped. */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(StdioServer.class);

  private final McpDispatcher dispatcher;
  private final ObjectMapper mapper;
  private final OutputStream out;
  private final Object writeLock = new Object();
  private volatile boolean closed;

  StdioServer(McpDispatcher dispatcher, ObjectMapper mapper, OutputStream out) {
    this.dispatcher = dispatcher;
    this.mapper = mapper;
    this.out = out;
  }

  /** Serves until {@code in} reaches end of stream; responses still pending then are dropped. */
  void serve(InputStream raw) throws IOException {
    InputStream in = new BufferedInputStream(raw, 64 * 1024);
    ClientSession session = new ClientSession("stdio-" + UUID.randomUUID(), this::write);
    LOG.info("stdio session {} started", session.id());
    try {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      boolean overlong = false;
      int next;
      while ((next = in.read()) != -1) {
        if (next != '\n') {
          if (line.size() < MAX_LINE_BYTES) {
            line.write(next);
          } else {
            overlong = true;
          }
          continue;
        }
        if (overlong) {
          write(JsonRpc.error(null, JsonRpcException.PARSE_ERROR, "Parse error: line longer than "
              + MAX_LINE_BYTES + " bytes"));
        } else {
          accept(session, line.toString(StandardCharsets.UTF_8).strip());
        }
        line.reset();
        overlong = false;
      }
    } finally {
      closed = true;
      LOG.info("stdio session {} ended (end of input)", session.id());
    }
  }

  private void accept(ClientSession session, String text) {
    if (text.isEmpty()) {
      return;
    }
    JsonNode message;
    try {
      message = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      write(JsonRpc.error(null, JsonRpcException.PARSE_ERROR, "Parse error: " + e.getOriginalMessage()));
      return;
    }
    dispatcher.handle(session, message).thenAccept(answer -> {
      if (answer != null) {
        write(answer.message());
      }
    });
  }

  private void write(ObjectNode message) {
    if (closed) {
      return;
    }
    try {
      byte[] bytes = mapper.writeValueAsBytes(message);
      synchronized (writeLock) {
        out.write(bytes);
        out.write('\n');
        out.flush();
      }
    } catch (IOException e) {
      closed = true;
      LOG.warn("stdout closed; dropping further messages", e);
    }
  }
}
