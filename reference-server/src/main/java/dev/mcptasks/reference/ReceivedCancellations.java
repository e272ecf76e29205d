package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Every {@code notifications/cancelled} the server received, in arrival order, for tests to assert on. */
final class ReceivedCancellations {
  private final List<ReceivedCancellation> received = new CopyOnWriteArrayList<>();

  void record(ClientSession session, JsonNode params) {
    JsonNode requestId = params.path("requestId");
    received.add(new ReceivedCancellation(session.id(), requestId.isMissingNode() ? null : requestId.asText(),
        params.path("reason").isTextual() ? params.path("reason").textValue() : null));
  }

  List<ReceivedCancellation> all() {
    return List.copyOf(received);
  }
}
