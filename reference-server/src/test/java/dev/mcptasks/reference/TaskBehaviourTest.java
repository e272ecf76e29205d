package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Reading task behaviour from tool arguments, and the overlap test of recorded control calls. */
class TaskBehaviourTest {

  @Test
  void defaultsWhenArgumentsAreAbsent() {
    TaskBehaviour behaviour = TaskBehaviour.from(null, 1000);
    assertThat(behaviour).isEqualTo(new TaskBehaviour(1000, "done", false, "work failed", 0, 0,
        TaskBehaviour.Malformed.NONE, 0, false, 0, false, 0, true, -32603, null, null, false));
  }

  @Test
  void badArgumentsAreInvalidParamsNamingTheArgument() {
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("durationMs", -1), 1000))
        .isInstanceOf(JsonRpcException.class).hasMessageContaining("durationMs must be a non-negative integer");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("durationMs", 1.5), 1000))
        .hasMessageContaining("durationMs");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("fail", "yes"), 1000))
        .hasMessageContaining("fail must be a boolean");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("result", 3), 1000))
        .hasMessageContaining("result must be a string");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("resultBytes", 1L << 40), 1000))
        .hasMessageContaining("resultBytes must be at most");
    assertThatThrownBy(() -> TaskBehaviour.from(StdioTestClient.MAPPER.createArrayNode(), 1000))
        .hasMessageContaining("arguments must be an object");
  }

  @Test
  void overlapTreatsUnansweredCallsAsOpenEnded() {
    ControlCall first = new ControlCall("tasks/get", 10, 20L, "a");
    assertThat(first.overlaps(new ControlCall("tasks/get", 20, 30L, "b"))).isFalse();
    assertThat(first.overlaps(new ControlCall("tasks/get", 19, 30L, "b"))).isTrue();
    assertThat(new ControlCall("tasks/get", 5, null, "a").overlaps(new ControlCall("tasks/get", 100, 101L, "b")))
        .isTrue();
  }
}
