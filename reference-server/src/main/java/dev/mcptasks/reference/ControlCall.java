package dev.mcptasks.reference;

/**
 * One control call the server received for a task: its method, when it arrived and when it was answered (epoch ms;
 * {@code endMs} is null while the call is unanswered, for ever if it hangs) and the session that sent it.
 */
public record ControlCall(String method, long startMs, Long endMs, String sessionId) {

  /** Whether this call's interval intersects {@code other}'s; an unanswered call is open-ended. */
  public boolean overlaps(ControlCall other) {
    long thisEnd = endMs == null ? Long.MAX_VALUE : endMs;
    long otherEnd = other.endMs == null ? Long.MAX_VALUE : other.endMs;
    return startMs < otherEnd && other.startMs < thisEnd;
  }
}
