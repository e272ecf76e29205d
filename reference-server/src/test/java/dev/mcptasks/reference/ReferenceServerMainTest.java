package dev.mcptasks.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Command-line parsing of {@link ReferenceServerMain}. */
class ReferenceServerMainTest {

  @Test
  void stdioWithDefaults() {
    ReferenceServerMain.Invocation invocation = ReferenceServerMain.parse(new String[] {"--stdio"});
    assertThat(invocation.httpPort()).isNull();
    assertThat(invocation.options()).isEqualTo(ReferenceServerOptions.defaults());
  }

  @Test
  void httpWithEveryFlag() {
    ReferenceServerMain.Invocation invocation = ReferenceServerMain.parse(new String[] {"--http", "0",
        "--session-scoped", "--ttl-ms", "5000", "--poll-interval-ms", "50", "--json", "--no-get-stream",
        "--strict-task-support", "--allow-origin", "https://app.example", "--sse-keepalive-ms", "0"});
    assertThat(invocation.httpPort()).isZero();
    ReferenceServerOptions options = invocation.options();
    assertThat(options.sessionScoped()).isTrue();
    assertThat(options.ttlOverrideMs()).isEqualTo(5000L);
    assertThat(options.pollIntervalMs()).isEqualTo(50);
    assertThat(options.jsonResponses()).isTrue();
    assertThat(options.getStream()).isFalse();
    assertThat(options.strictTaskSupport()).isTrue();
    assertThat(options.allowedOrigins()).isEqualTo(List.of("https://app.example"));
    assertThat(options.sseKeepAliveMs()).isZero();
  }

  @Test
  void generationFlags() {
    assertThat(ReferenceServerOptions.defaults().generation()).isEqualTo(ServedGenerations.V2025_11_25);
    assertThat(ReferenceServerOptions.defaults().contentQuirk()).isTrue();
    ReferenceServerOptions v2026 = ReferenceServerMain.parse(new String[] {"--stdio", "--generation", "2026-07-28",
        "--bare-result", "--no-content-quirk"}).options();
    assertThat(v2026.generation()).isEqualTo(ServedGenerations.V2026_07_28);
    assertThat(v2026.bareResult()).isTrue();
    assertThat(v2026.contentQuirk()).isFalse();
    assertThat(ReferenceServerMain.parse(new String[] {"--stdio", "--generation", "dual"}).options().generation())
        .isEqualTo(ServedGenerations.DUAL);
    assertThat(ReferenceServerMain.parse(new String[] {"--stdio", "--generation", "2025-11-25"}).options())
        .isEqualTo(ReferenceServerOptions.defaults());
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--stdio", "--generation", "2026"}))
        .hasMessage("--generation must be one of 2025-11-25, 2026-07-28, dual but was 2026");
    assertThat(ReferenceServerMain.USAGE).contains("--generation G").contains("--bare-result")
        .contains("--no-content-quirk");
  }

  @Test
  void badCommandLinesNameTheProblem() {
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {}))
        .hasMessageContaining("exactly one of --stdio and --http");
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--stdio", "--http", "1"}))
        .hasMessageContaining("exactly one");
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--http", "x"}))
        .hasMessageContaining("--http needs an integer but got x");
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--http", "70000"}))
        .hasMessageContaining("between 0 and 65535");
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--stdio", "--ttl-ms"}))
        .hasMessageContaining("--ttl-ms needs a value");
    assertThatThrownBy(() -> ReferenceServerMain.parse(new String[] {"--stdio", "--verbose"}))
        .hasMessageContaining("unknown argument: --verbose");
  }
}
