package dev.mcptasks.reference;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Which protocol generations the server speaks ({@code --generation}). */
public enum ServedGenerations {
  /** 2025-11-25 only: {@code initialize}, sessions, the tasks utility; {@code server/discover} is unknown. */
  V2025_11_25("2025-11-25"),
  /** 2026-07-28 only: {@code server/discover}, the per-request envelope, the tasks extension; no sessions. */
  V2026_07_28("2026-07-28"),
  /**
   * Both on one endpoint, chosen per request: a request carrying the 2026 envelope (or {@code server/discover}) is
   * 2026-07-28, anything else follows the 2025-11-25 rules.
   */
  DUAL("dual");

  private final String flag;

  ServedGenerations(String flag) {
    this.flag = flag;
  }

  String flag() {
    return flag;
  }

  boolean serves2026() {
    return this != V2025_11_25;
  }

  boolean serves2025() {
    return this != V2026_07_28;
  }

  /** The value of {@code --generation}; a bad one raises IllegalArgumentException naming the choices. */
  static ServedGenerations fromFlag(String text) {
    return Arrays.stream(values()).filter(g -> g.flag.equals(text)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("--generation must be one of "
            + Arrays.stream(values()).map(ServedGenerations::flag).collect(Collectors.joining(", ")) + " but was "
            + text));
  }
}
