package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ordinary-tools toolset (submit_job, job_status, cancel_job) and the stats tool, over stdio. */
class OrdinaryToolsetTest {
  private ReferenceServer server;
  private StdioTestClient client;

  @BeforeEach
  void start() throws Exception {
    server = new ReferenceServer(ReferenceServerOptions.defaults());
    client = new StdioTestClient(server);
    client.initialize();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
  }

  @Test
  void submittedJobRunsToCompletion() {
    JsonNode submitted = structured("submit_job", Json.obj("durationMs", 5, "result", "42", "statusDelayMs", 10));
    String jobId = submitted.path("task_id").asText();
    assertThat(submitted.path("status").asText()).isEqualTo("running");
    JsonNode status = awaitTerminal(jobId);
    assertThat(status.path("status").asText()).isEqualTo("completed");
    assertThat(status.path("result").asText()).isEqualTo("42");
    assertThat(status.has("poll_after_seconds")).isFalse();
  }

  @Test
  void runningJobSuggestsAPollDelayAndCanBeCancelledOnce() {
    String jobId = structured("submit_job", Json.obj("durationMs", 60_000)).path("task_id").asText();
    JsonNode running = structured("job_status", Json.obj("task_id", jobId));
    assertThat(running.path("status").asText()).isEqualTo("running");
    assertThat(running.path("poll_after_seconds").asInt()).isEqualTo(1);

    JsonNode cancelled = structured("cancel_job", Json.obj("task_id", jobId));
    assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
    JsonNode again = client.result("tools/call", Json.call("cancel_job", Json.obj("task_id", jobId), null));
    assertThat(again.path("isError").asBoolean()).isTrue();
    assertThat(again.path("structuredContent").path("error_code").asText()).isEqualTo("already_terminal");
    assertThat(structured("job_status", Json.obj("task_id", jobId)).path("status").asText()).isEqualTo("cancelled");
  }

  @Test
  void failedAndInputRequiredAndUnknownJobs() {
    String failing = structured("submit_job", Json.obj("durationMs", 1, "fail", true, "failMessage", "disk full",
        "statusDelayMs", 10)).path("task_id").asText();
    JsonNode failed = awaitTerminal(failing);
    assertThat(failed.path("status").asText()).isEqualTo("failed");
    assertThat(failed.path("error").asText()).isEqualTo("disk full");
    assertThat(failed.path("error_code").asText()).isEqualTo("job_failed");

    String waiting = structured("submit_job", Json.obj("inputRequiredMs", 60_000)).path("task_id").asText();
    assertThat(structured("job_status", Json.obj("task_id", waiting)).path("status").asText())
        .isEqualTo("input_required");

    JsonNode unknown = client.result("tools/call", Json.call("job_status", Json.obj("task_id", "job-x"), null));
    assertThat(unknown.path("isError").asBoolean()).isTrue();
    assertThat(unknown.path("structuredContent").path("error_code").asText()).isEqualTo("not_found");
  }

  @Test
  void jobsAndTasksDoNotSeeEachOther() {
    String jobId = structured("submit_job", Json.obj("durationMs", 60_000)).path("task_id").asText();
    assertThat(client.request("tasks/get", Json.taskId(jobId)).path("error").path("code").asInt())
        .isEqualTo(-32602);
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 0L))
        .path("task").path("taskId").asText();
    assertThat(client.result("tools/call", Json.call("job_status", Json.obj("task_id", taskId), null))
        .path("isError").asBoolean()).isTrue();
    assertThat(client.result("tasks/list", Json.obj()).path("tasks")).hasSize(1);
  }

  @Test
  void statsListEveryControlCallOfEveryTask() {
    String taskId = client.result("tools/call", Json.call("work", Json.obj("durationMs", 60_000), 0L))
        .path("task").path("taskId").asText();
    client.result("tasks/get", Json.taskId(taskId));
    client.result("tasks/cancel", Json.taskId(taskId));
    String jobId = structured("submit_job", Json.obj("durationMs", 60_000)).path("task_id").asText();
    structured("job_status", Json.obj("task_id", jobId));

    JsonNode tasks = structured("stats", Json.obj()).path("tasks");
    assertThat(tasks.path(taskId).path("calls").findValuesAsText("method"))
        .containsExactly("tools/call", "tasks/get", "tasks/cancel");
    assertThat(tasks.path(jobId).path("calls").findValuesAsText("method"))
        .containsExactly("submit_job", "job_status");
    JsonNode call = tasks.path(taskId).path("calls").get(1);
    assertThat(call.path("endMs").asLong()).isGreaterThanOrEqualTo(call.path("startMs").asLong());
    assertThat(call.path("sessionId").asText()).startsWith("stdio-");
    JsonNode one = structured("stats", Json.obj("taskId", jobId)).path("tasks");
    assertThat(one.size()).isEqualTo(1);
  }

  private JsonNode structured(String tool, ObjectNode arguments) {
    JsonNode result = client.result("tools/call", Json.call(tool, arguments, null));
    assertThat(result.path("isError").asBoolean()).as("%s answered %s", tool, result).isFalse();
    assertThat(result.path("content").get(0).path("text").asText())
        .isEqualTo(result.path("structuredContent").toString());
    return result.path("structuredContent");
  }

  /** Polls job_status; each answer is held statusDelayMs by the server, so this loop never spins. */
  private JsonNode awaitTerminal(String jobId) {
    for (int attempt = 0; attempt < 500; attempt++) {
      JsonNode status = structured("job_status", Json.obj("task_id", jobId));
      if (!status.path("status").asText().matches("running|input_required")) {
        return status;
      }
    }
    throw new AssertionError("job " + jobId + " never ended");
  }
}
