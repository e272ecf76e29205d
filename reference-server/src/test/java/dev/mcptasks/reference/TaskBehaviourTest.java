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
  void the2026ArgumentsAreReadAndCheckedByName() {
    TaskBehaviour behaviour = TaskBehaviour.from(Json.obj("failAs", "isError", "errorCode", -32000, "askInput",
        "Sure?", "approveFirst", true, "cancelIgnored", true), 1000);
    assertThat(behaviour.failAsError()).isFalse();
    assertThat(behaviour.errorCode()).isEqualTo(-32000);
    assertThat(behaviour.askInput()).isEqualTo("Sure?");
    assertThat(behaviour.asksInput()).isTrue();
    assertThat(behaviour.approveFirst()).isEqualTo(TaskBehaviour.DEFAULT_APPROVE_MESSAGE);
    assertThat(behaviour.cancelIgnored()).isTrue();
    assertThat(TaskBehaviour.from(Json.obj("approveFirst", "Go?"), 1000).approveFirst()).isEqualTo("Go?");
    assertThat(TaskBehaviour.from(Json.obj("inputRequiredMs", 5), 1000).asksInput()).isTrue();
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("failAs", "crash"), 1000))
        .hasMessageContaining("failAs must be \"error\" or \"isError\"");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("errorCode", "x"), 1000))
        .hasMessageContaining("errorCode must be an integer");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("approveFirst", 3), 1000))
        .hasMessageContaining("approveFirst must be a boolean or a string");
    assertThatThrownBy(() -> TaskBehaviour.from(Json.obj("askInput", true), 1000))
        .hasMessageContaining("askInput must be a string");
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
