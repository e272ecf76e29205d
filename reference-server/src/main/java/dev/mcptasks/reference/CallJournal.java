package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A durable record of everything the server was asked and answered, one JSON object per line, so that a harness that
 * kills clients at random can check afterwards what the server really saw: sessions (with the client's
 * {@code X-Client-Tag} header), task creations with their arguments, every control call's begin (with the tag of
 * the request that made it: a client may speak in a session another client created) and end (with the status or
 * error it answered), every control call whose client closed its connection before the answer was
 * written ({@code abandon}, with the moment the server saw the close), and every task's terminal status with its
 * result.
 *
 * <p>Each line is written and flushed under the journal's monitor, so lines never interleave and a line is in the file
 * before the answer it describes leaves the server. {@link #none()} records nothing.
 */
final class CallJournal implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final OutputStream out;
  private final Clock clock;
  private final AtomicLong calls = new AtomicLong();
  /** Calls begun and not yet ended: only these can be abandoned. */
  private final Set<Long> unanswered = ConcurrentHashMap.newKeySet();
  /**
   * The connection of the request being dispatched on this thread, as a way to run an action once it closes. Set by
   * {@link #onConnection} around a dispatch: everything from reading a request to journaling its call's begin runs
   * synchronously on the dispatching thread (only the answer may come later), so a begin sees its own request's
   * connection and never another's.
   */
  private static final ThreadLocal<Consumer<Runnable>> CONNECTION = new ThreadLocal<>();
  /** The {@code X-Client-Tag} of the request being dispatched on this thread, set alongside {@link #CONNECTION}. */
  private static final ThreadLocal<String> CLIENT = new ThreadLocal<>();

  private CallJournal(OutputStream out, Clock clock) {
    this.out = out;
    this.clock = clock;
  }

  /** A journal that records nothing. */
  static CallJournal none() {
    return new CallJournal(null, Clock.systemUTC());
  }

  /** Appends to {@code file}, creating it when missing. */
  static CallJournal open(Path file, Clock clock) {
    try {
      return new CallJournal(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
          StandardOpenOption.WRITE), clock);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open call log " + file, e);
    }
  }

  void session(String sessionId, String clientTag) {
    ObjectNode line = line("session").put("session", sessionId);
    if (clientTag != null) {
      line.put("client", clientTag);
    }
    write(line);
  }

  void created(String taskId, String kind, String sessionId, JsonNode arguments) {
    created(taskId, kind, sessionId, arguments, null);
  }

  /** A creation; {@code generation} (null for 2025-11-25, which lines leave implicit) is added when given. */
  void created(String taskId, String kind, String sessionId, JsonNode arguments, String generation) {
    ObjectNode line = line("create").put("task", taskId).put("kind", kind).put("session", sessionId);
    line.set("arguments", arguments == null ? null : arguments.deepCopy());
    generation(line, generation);
    write(line);
  }

  /**
   * A 2026 input answer offered for {@code taskId}'s request {@code key}: through {@code tasks/update}, or the MRTR
   * answer ({@code via: "requestState"}) that let the creating call through; {@code accepted} false when ignored.
   */
  void answered(String taskId, String key, JsonNode response, boolean accepted, String via) {
    ObjectNode line = line("answer").put("task", taskId).put("key", key).put("accepted", accepted).put("via", via);
    line.set("response", response == null ? null : response.deepCopy());
    generation(line, Envelope.VERSION);
    write(line);
  }

  /**
   * Dispatches a request whose connection runs {@code onClose} actions once it closes: a call begun during
   * {@code dispatch} that has not ended when its connection closes is journaled as abandoned by the client.
   */
  <T> T onConnection(Consumer<Runnable> onClose, Supplier<T> dispatch) {
    return onConnection(onClose, null, dispatch);
  }

  /** {@link #onConnection(Consumer, Supplier)} of a request that named its client ({@code X-Client-Tag}). */
  <T> T onConnection(Consumer<Runnable> onClose, String clientTag, Supplier<T> dispatch) {
    Consumer<Runnable> outer = CONNECTION.get();
    String outerClient = CLIENT.get();
    CONNECTION.set(onClose);
    CLIENT.set(clientTag);
    try {
      return dispatch.get();
    } finally {
      CONNECTION.set(outer);
      CLIENT.set(outerClient);
    }
  }

  /** Records the start of a call and returns its number, for {@link #end}. */
  long begin(String taskId, String method, String sessionId) {
    return begin(taskId, method, sessionId, null);
  }

  /** {@link #begin(String, String, String)} of a call made on {@code generation} (null: 2025-11-25, implicit). */
  long begin(String taskId, String method, String sessionId, String generation) {
    long call = calls.incrementAndGet();
    if (out != null) {
      unanswered.add(call);
      ObjectNode line = line("begin").put("call", call).put("task", taskId).put("method", method)
          .put("session", sessionId);
      String client = CLIENT.get();
      if (client != null) {
        line.put("client", client);
      }
      generation(line, generation);
      write(line);
      Consumer<Runnable> connection = CONNECTION.get();
      if (connection != null) {
        // runs at once when the connection is already closed
        connection.accept(() -> abandoned(call));
      }
    }
    return call;
  }

  /**
   * The client closed the connection of call {@code call}. Journaled only while the call is open: once its end is
   * journaled the answer is on its way (the end line precedes the answer's write), and a close after that is the
   * client's ordinary disconnect. A call may end after its abandon line: the server does not stop the work.
   */
  private void abandoned(long call) {
    if (unanswered.contains(call)) {
      write(line("abandon").put("call", call));
    }
  }

  /** Records the answer of call {@code call}: the task status it carried, or the error it was. */
  void end(long call, Object answer, Throwable failure) {
    if (out == null) {
      return;
    }
    unanswered.remove(call);
    ObjectNode line = line("end").put("call", call);
    if (failure != null) {
      Throwable cause = failure.getCause() != null && !(failure instanceof JsonRpcException) ? failure.getCause()
          : failure;
      line.put("error", String.valueOf(cause.getMessage()));
    } else if (answer instanceof JsonNode node) {
      JsonNode status = node.has("task") ? node.path("task").path("status") : node.path("status");
      if (status.isTextual()) {
        line.put("status", status.textValue());
      }
      // a 2025 CreateTaskResult wraps the task; a 2026 one is flat, marked resultType "task"
      JsonNode taskId = "task".equals(node.path("resultType").asText()) ? node.path("taskId")
          : node.path("task").path("taskId");
      if (taskId.isTextual()) {
        line.put("task", taskId.textValue());
      }
    }
    write(line);
  }

  void terminal(String taskId, WireStatus status, JsonNode result) {
    ObjectNode line = line("terminal").put("task", taskId).put("status", status.wire());
    line.set("result", result == null ? null : result.deepCopy());
    write(line);
  }

  private static void generation(ObjectNode line, String generation) {
    if (generation != null) {
      line.put("generation", generation);
    }
  }

  /**
   * A client sent request id {@code id} (its JSON text) in a session where it had used it before;
   * {@code inFlight} when the earlier request was still unanswered (its answer now goes to the later one).
   */
  void reusedId(String sessionId, String id, boolean inFlight) {
    write(line("reused_id").put("session", sessionId).put("id", id).put("in_flight", inFlight));
  }

  private ObjectNode line(String event) {
    return MAPPER.createObjectNode().put("e", event).put("t", clock.millis());
  }

  private void write(ObjectNode line) {
    if (out == null) {
      return;
    }
    byte[] bytes;
    try {
      bytes = (MAPPER.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    synchronized (this) {
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot append to the call log", e);
      }
    }
  }

  @Override
  public synchronized void close() {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        // the server is closing; the lines written so far are in the file
      }
    }
  }
}
