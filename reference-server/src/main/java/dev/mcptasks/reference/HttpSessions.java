package dev.mcptasks.reference;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** The live Streamable HTTP sessions by {@code Mcp-Session-Id}; a deleted id is never reissued. */
final class HttpSessions {
  private final Map<String, ClientSession> sessions = new ConcurrentHashMap<>();

  ClientSession open() {
    ClientSession session = new ClientSession(UUID.randomUUID().toString(), null);
    sessions.put(session.id(), session);
    return session;
  }

  Optional<ClientSession> find(String id) {
    return Optional.ofNullable(id == null ? null : sessions.get(id));
  }

  /** Ends session {@code id} and closes its GET stream; false when it was unknown. */
  boolean close(String id) {
    ClientSession session = sessions.remove(id);
    if (session == null) {
      return false;
    }
    session.closeAttached();
    return true;
  }

  void closeAll() {
    sessions.keySet().forEach(this::close);
  }
}
