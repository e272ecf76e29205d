package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ReferenceServerMain} as a child process: stdout carries only protocol lines and EOF ends the process. */
class ReferenceServerProcessTest {

  @Test
  void stdioProcessSpeaksOnlyJsonOnStdoutAndExitsAtEndOfInput() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ReferenceServerMain.class.getName(), "--stdio")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    try (OutputStream stdin = process.getOutputStream();
         BufferedReader stdout = new BufferedReader(
             new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
          + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
          + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"work\","
          + "\"arguments\":{\"durationMs\":1},\"task\":{}}}\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      List<JsonNode> lines = new ArrayList<>();
      String line;
      while (lines.stream().noneMatch(m -> m.path("id").asInt() == 2) && (line = stdout.readLine()) != null) {
        lines.add(StdioTestClient.MAPPER.readTree(line));
      }
      assertThat(lines.get(0).path("result").path("protocolVersion").asText()).isEqualTo("2025-11-25");
      assertThat(lines).anySatisfy(m -> assertThat(m.path("method").asText()).isEqualTo("notifications/tasks/status"));
      stdin.close();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).isZero();
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void generationFlagMakesTheProcessA2026Server() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        ReferenceServerMain.class.getName(), "--stdio", "--generation", "2026-07-28")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String envelope = Json.envelope(true).toString();
    try (OutputStream stdin = process.getOutputStream();
         BufferedReader stdout = new BufferedReader(
             new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":" + envelope
          + "}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"work\","
          + "\"arguments\":{\"durationMs\":1},\"_meta\":" + envelope + "}}\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      List<JsonNode> lines = new ArrayList<>();
      String line;
      while (lines.size() < 2 && (line = stdout.readLine()) != null) {
        lines.add(StdioTestClient.MAPPER.readTree(line));
      }
      assertThat(lines).anySatisfy(m -> assertThat(m.path("result").path("supportedVersions").toString())
          .isEqualTo("[\"2026-07-28\"]"));
      assertThat(lines).anySatisfy(m -> assertThat(m.path("result").path("resultType").asText()).isEqualTo("task"));
      stdin.close();
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).isZero();
    } finally {
      process.destroyForcibly();
    }
  }
}
