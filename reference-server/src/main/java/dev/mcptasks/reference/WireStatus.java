package dev.mcptasks.reference;

/** The five 2025-11-25 task statuses with their wire spelling. */
enum WireStatus {
  WORKING("working"),
  INPUT_REQUIRED("input_required"),
  COMPLETED("completed"),
  FAILED("failed"),
  CANCELLED("cancelled");

  private final String wire;

  WireStatus(String wire) {
    this.wire = wire;
  }

  String wire() {
    return wire;
  }

  boolean terminal() {
    return this == COMPLETED || this == FAILED || this == CANCELLED;
  }
}
