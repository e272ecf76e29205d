package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/** A line-oriented JSON-RPC client wired to {@link ReferenceServer#runStdio} through in-process pipes. */
final class StdioTestClient implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private final OutputStream toServer;
  private final Thread serverThread;
  private final Thread readerThread;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  /** Every message received, in arrival order. */
  final List<JsonNode> received = new CopyOnWriteArrayList<>();
  private final List<Waiter> waiters = new CopyOnWriteArrayList<>();

  private record Waiter(Predicate<JsonNode> match, CompletableFuture<JsonNode> found) {}

  StdioTestClient(ReferenceServer server) throws IOException {
    Pipe requests = Pipe.open();
    Pipe responses = Pipe.open();
    toServer = Channels.newOutputStream(requests.sink());
    serverThread = new Thread(() -> {
      try (OutputStream out = Channels.newOutputStream(responses.sink())) {
        server.runStdio(Channels.newInputStream(requests.source()), out);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }, "stdio-server");
    serverThread.start();
    BufferedReader reader = new BufferedReader(
        new InputStreamReader(Channels.newInputStream(responses.source()), StandardCharsets.UTF_8));
    readerThread = new Thread(() -> readLoop(reader), "stdio-client-reader");
    readerThread.start();
  }

  private void readLoop(BufferedReader reader) {
    try {
      String line;
      while ((line = reader.readLine()) != null) {
        JsonNode message = MAPPER.readTree(line);
        received.add(message);
        for (Waiter waiter : waiters) {
          if (waiter.match().test(message)) {
            waiter.found().complete(message);
          }
        }
        if (message.has("id") && !message.has("method") && message.get("id").isInt()) {
          CompletableFuture<JsonNode> future = pending.remove(message.get("id").intValue());
          if (future != null) {
            future.complete(message);
          }
        }
      }
    } catch (IOException e) {
      pending.values().forEach(future -> future.completeExceptionally(e));
    }
  }

  /** Sends a request and returns the future of the whole response message. */
  CompletableFuture<JsonNode> send(String method, JsonNode params) {
    int id = ids.incrementAndGet();
    ObjectNode message = MAPPER.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
    if (params != null) {
      message.set("params", params);
    }
    CompletableFuture<JsonNode> future = new CompletableFuture<>();
    pending.put(id, future);
    writeLine(message.toString());
    return future;
  }

  /** Sends a request and waits (bounded) for its response message. */
  JsonNode request(String method, JsonNode params) {
    return await(send(method, params));
  }

  /** The {@code result} of a request that must succeed. */
  JsonNode result(String method, JsonNode params) {
    JsonNode response = request(method, params);
    if (!response.has("result")) {
      throw new AssertionError(method + " failed: " + response);
    }
    return response.get("result");
  }

  void notifyServer(String method) {
    writeLine("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}");
  }

  void writeLine(String line) {
    try {
      synchronized (toServer) {
        toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Completes with the first message, received before or after this call, that {@code match} accepts. */
  CompletableFuture<JsonNode> whenReceived(Predicate<JsonNode> match) {
    CompletableFuture<JsonNode> found = new CompletableFuture<>();
    waiters.add(new Waiter(match, found));
    received.stream().filter(match).findFirst().ifPresent(found::complete);
    return found;
  }

  JsonNode initialize() {
    JsonNode result = result("initialize", Json.obj("protocolVersion", "2025-11-25", "capabilities",
        Json.obj(), "clientInfo", Json.obj("name", "test", "version", "1")));
    notifyServer("notifications/initialized");
    return result;
  }

  static JsonNode await(CompletableFuture<JsonNode> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("no answer within 10 s", e);
    }
  }

  @Override
  public void close() throws Exception {
    toServer.close();
    serverThread.join(5000);
    readerThread.join(5000);
  }
}
