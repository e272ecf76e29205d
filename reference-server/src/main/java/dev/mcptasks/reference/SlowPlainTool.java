package dev.mcptasks.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code slow_plain}: a tool without task support that answers only after {@code durationMs}, reporting
 * {@code steps} evenly spaced {@code notifications/progress} for the request's {@code _meta.progressToken} (when it
 * has one) meanwhile: what a client must hold open as a direct call. Progress goes where the session's notifications
 * go (stdout on stdio, the GET stream over HTTP).
 */
final class SlowPlainTool {
  private static final long DEFAULT_DURATION_MS = 1000;

  private final ScheduledExecutorService scheduler;

  SlowPlainTool(ScheduledExecutorService scheduler) {
    this.scheduler = scheduler;
  }

  CompletableFuture<JsonNode> call(ClientSession session, JsonNode arguments, JsonNode progressToken) {
    long durationMs = Math.max(0, arguments.path("durationMs").asLong(DEFAULT_DURATION_MS));
    int steps = Math.max(0, arguments.path("steps").asInt(0));
    String result = arguments.path("result").asText("slow_plain done");
    boolean reports = progressToken != null && progressToken.isValueNode() && !progressToken.isNull();
    for (int step = 1; reports && step <= steps; step++) {
      int current = step;
      // the last step goes out before the answer, never after it
      long at = durationMs * step / (steps + 1);
      scheduler.schedule(() -> session.notify(progress(progressToken, current, steps)), at, TimeUnit.MILLISECONDS);
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    scheduler.schedule(() -> answer.complete(ToolResults.text(result)), durationMs, TimeUnit.MILLISECONDS);
    return answer;
  }

  private static ObjectNode progress(JsonNode token, int step, int steps) {
    ObjectNode params = JsonNodeFactory.instance.objectNode();
    params.set("progressToken", token);
    params.put("progress", step);
    params.put("total", steps);
    params.put("message", "step " + step + " of " + steps);
    return JsonRpc.notification("notifications/progress", params);
  }
}
