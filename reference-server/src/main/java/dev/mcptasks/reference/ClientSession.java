package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One client connection's state: its id (the {@code Mcp-Session-Id} over HTTP, a generated id over stdio), the
 * negotiated protocol version, and where server-initiated notifications go (stdout over stdio; the GET stream over
 * HTTP, dropped while none is open, as SDK servers do).
 */
final class ClientSession {
  private static final Consumer<ObjectNode> DROP = message -> { };

  private final String id;
  private final AtomicReference<Consumer<ObjectNode>> notifications;
  /** Answer routes by request id, for strict id routing ({@link RequestRoutes}). */
  private final RequestRoutes routes = new RequestRoutes();
  private volatile String protocolVersion;

  ClientSession(String id, Consumer<ObjectNode> notifications) {
    this.id = id;
    this.notifications = new AtomicReference<>(notifications == null ? DROP : notifications);
  }

  String id() {
    return id;
  }

  RequestRoutes routes() {
    return routes;
  }

  String protocolVersion() {
    return protocolVersion;
  }

  void protocolVersion(String version) {
    this.protocolVersion = version;
  }

  void notify(ObjectNode message) {
    notifications.get().accept(message);
  }

  /** Routes notifications to {@code sink}; false when another sink is already attached. */
  boolean attach(Consumer<ObjectNode> sink) {
    return notifications.compareAndSet(DROP, sink);
  }

  /** Closes the attached sink if it holds a resource (the GET stream), when the session ends. */
  void closeAttached() {
    Consumer<ObjectNode> sink = notifications.getAndSet(DROP);
    if (sink instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // closing a stream of an ended session; nothing is left to tell
      }
    }
  }

  /** Stops routing to {@code sink} if it is the attached one. */
  void detach(Consumer<ObjectNode> sink) {
    notifications.compareAndSet(sink, DROP);
  }
}
