package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Where the answers of one session's requests go, by request id, as the TypeScript SDK's Streamable HTTP server keeps
 * them (a map from request id to the stream that carries the answer). A request reusing the id of one still in flight
 * replaces its route: the earlier request's answer then leaves on the later request's stream, and the later answer
 * finds no route and is dropped. This is the misrouting a client that reuses ids meets on real servers. Every id
 * ever used in the session is remembered (up to {@link #MAX_REMEMBERED}) so that any reuse is reported.
 */
final class RequestRoutes {
  static final int MAX_REMEMBERED = 1_000_000;

  /** What {@link #register} saw of the id. */
  enum Use { FIRST, REUSED, REUSED_IN_FLIGHT }

  private final Map<String, Consumer<ObjectNode>> inFlight = new ConcurrentHashMap<>();
  private final Set<String> used = ConcurrentHashMap.newKeySet();

  /** Routes the answer to request {@code id} (its JSON text) to {@code route}, replacing a route in flight. */
  Use register(String id, Consumer<ObjectNode> route) {
    boolean seen = used.contains(id);
    if (!seen && used.size() < MAX_REMEMBERED) {
      used.add(id);
    }
    Consumer<ObjectNode> earlier = inFlight.put(id, route);
    return earlier != null ? Use.REUSED_IN_FLIGHT : seen ? Use.REUSED : Use.FIRST;
  }

  /** Sends the answer of request {@code id} wherever its id routes now; dropped when no route is left. */
  void answer(String id, ObjectNode answer) {
    Consumer<ObjectNode> route = inFlight.remove(id);
    if (route != null) {
      route.accept(answer);
    }
  }

  int inFlight() {
    return inFlight.size();
  }
}
